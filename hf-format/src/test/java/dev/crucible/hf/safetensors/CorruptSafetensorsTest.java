package dev.crucible.hf.safetensors;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.hf.ModelFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A corrupt file fails when opened, with a message saying what is wrong, and nothing reads past its end. */
class CorruptSafetensorsTest {

    @TempDir
    Path dir;

    /** A file with the given header (length taken from it) and {@code dataBytes} zero bytes of data. */
    private Path file(String header, int dataBytes) throws IOException {
        byte[] json = header.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(8 + json.length + dataBytes).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(json.length).put(json);
        return Files.write(dir.resolve("bad.safetensors"), b.array());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "data beyond the file       | {\"x\":{\"dtype\":\"F32\",\"shape\":[4],\"data_offsets\":[0,16]}}   | 8"
                + " | outside the data section of 8 bytes",
        "size not matching shape    | {\"x\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}}    | 8"
                + " | has 8 bytes but F32 [3] needs 12",
        "begin after end            | {\"x\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[4,2]}}     | 8"
                + " | outside the data section",
        "negative dimension         | {\"x\":{\"dtype\":\"F32\",\"shape\":[-1],\"data_offsets\":[0,0]}}   | 0"
                + " | invalid shape value: -1",
        "huge shape                 | {\"x\":{\"dtype\":\"F32\",\"shape\":[4294967296,4294967296],\"data_offsets\":[0,0]}} | 0"
                + " | shape too large",
        "unsupported dtype          | {\"x\":{\"dtype\":\"F8_E4M3\",\"shape\":[1],\"data_offsets\":[0,1]}} | 1"
                + " | unsupported dtype 'F8_E4M3'",
        "overlapping tensors        | {\"x\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4]},\"y\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[2,6]}} | 8"
                + " | overlap",
        "missing offsets            | {\"x\":{\"dtype\":\"U8\",\"shape\":[4]}}                            | 4"
                + " | needs a string dtype, a shape list and two data_offsets",
        "duplicate tensor names     | {\"x\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]},\"x\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[1,2]}} | 2"
                + " | not valid JSON",
        "not JSON                   | {\"x\": nope}                                                       | 0"
                + " | not valid JSON",
        "not an object              | [1, 2]                                                               | 0"
                + " | does not start with '{'",
        "metadata that is no string | {\"__metadata__\":{\"n\":1}}                                         | 0"
                + " | __metadata__ value of 'n' is not a string"})
    void refusesACorruptHeader(String what, String header, int dataBytes, String message) throws IOException {
        assertRefused(file(header, dataBytes), message);
    }

    @Test
    void refusesAFileTooShortForItsHeaderLength() throws IOException {
        assertRefused(Files.write(dir.resolve("short.safetensors"), new byte[] {1, 2, 3}), "too short");
        byte[] lying = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(1000).array();
        assertRefused(Files.write(dir.resolve("lying.safetensors"), lying), "header length 1000 does not fit");
        byte[] negative = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(-8).array();
        assertRefused(Files.write(dir.resolve("neg.safetensors"), negative),
                "header length 18446744073709551608 does not fit");
    }

    @Test
    void refusesATruncatedFile() throws IOException {
        Path good = dir.resolve("good.safetensors");
        new SafetensorsWriter().add("x", DType.F32, new long[] {4}, new float[4]).write(good);
        byte[] bytes = Files.readAllBytes(good);
        Path truncated = Files.write(dir.resolve("cut.safetensors"),
                Arrays.copyOf(bytes, bytes.length - 1));
        assertRefused(truncated, "outside the data section");
    }

    private static void assertRefused(Path file, String message) {
        var e = assertThrows(ModelFormatException.class, () -> SafetensorsReader.open(file).close());
        assertTrue(e.getMessage().contains(message), e.getMessage());
        assertTrue(e.getMessage().startsWith(file.getFileName().toString()), e.getMessage());
    }
}
