package dev.crucible.adapters.http.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.domain.refusal.RefusalException;
import dev.crucible.domain.refusal.Refusal;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;

class AdapterArchiveTest {

    private static byte[] zip(String... namesAndContents) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            for (int i = 0; i < namesAndContents.length; i += 2) {
                zip.putNextEntry(new ZipEntry(namesAndContents[i]));
                zip.write(namesAndContents[i + 1].getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        }
        return out.toByteArray();
    }

    private static Path unpack(byte[] archive, long maxBytes) {
        return AdapterArchive.unpack(new ByteArrayInputStream(archive), maxBytes);
    }

    @Test
    void entriesAreTakenByNameAloneSoNoPathInTheArchiveReachesTheDisk() throws IOException {
        Path folder = unpack(zip("../../escape/adapter_config.json", "{}", "/abs/adapter_model.safetensors", "w",
                "notes/README.md", "hi"), 1000);
        try (Stream<Path> files = Files.list(folder)) {
            assertEquals(List.of("adapter_config.json", "adapter_model.safetensors"),
                    files.map(p -> p.getFileName().toString()).sorted().toList());
        }
        assertArrayEquals("w".getBytes(StandardCharsets.UTF_8), Files.readAllBytes(folder.resolve("adapter_model.safetensors")));
        assertFalse(Files.exists(folder.getParent().getParent().resolve("escape")));
        AdapterArchive.delete(folder);
        assertFalse(Files.exists(folder));
    }

    @Test
    void anArchiveThatUnpacksPastTheBoundIsTooLarge() throws IOException {
        RefusalException e = assertThrows(RefusalException.class, () -> unpack(zip("adapter_config.json", "{}",
                "adapter_model.safetensors", "x".repeat(5000)), 1000));
        assertEquals(Refusal.Reason.TOO_LARGE, e.refusal().reason());
        assertEquals("adapter", e.refusal().param());
    }

    @Test
    void missingTwiceOrNotAnArchiveAre400sNamingTheAdapter() throws IOException {
        for (byte[] bad : List.of(zip("adapter_config.json", "{}"),
                zip("a/adapter_config.json", "{}", "b/adapter_config.json", "{}", "adapter_model.safetensors", "w"),
                "plain text".getBytes(StandardCharsets.UTF_8), new byte[0])) {
            RefusalException e = assertThrows(RefusalException.class, () -> unpack(bad, 1000));
            assertEquals(Refusal.Reason.INVALID, e.refusal().reason());
            assertEquals("adapter", e.refusal().param());
        }
    }
}
