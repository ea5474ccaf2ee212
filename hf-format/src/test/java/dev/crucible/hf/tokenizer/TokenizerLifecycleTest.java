package dev.crucible.hf.tokenizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.hf.ModelFormatException;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.tiny.TinyModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Loading, refusals, threads and closing of the model's tokenizer ({@link Tokenizer#load}). */
class TokenizerLifecycleTest {

    @TempDir
    Path dir;

    @Test
    void ignoresTruncationAndPaddingWrittenInTokenizerJson() throws IOException {
        TinyModel.write(Architecture.QWEN3, dir, 1);
        Path file = dir.resolve("tokenizer.json");
        int[] expected;
        try (Tokenizer plain = Tokenizer.load(file)) {
            expected = plain.encode(TokenizerSamples.CHATML, false);
        }
        Files.writeString(file, Files.readString(file)
                .replace("\"truncation\": null", "\"truncation\": {\"direction\": \"Right\", \"max_length\": 4, "
                        + "\"strategy\": \"LongestFirst\", \"stride\": 0}")
                .replace("\"padding\": null", "\"padding\": {\"strategy\": {\"Fixed\": 64}, \"direction\": \"Right\", "
                        + "\"pad_to_multiple_of\": null, \"pad_id\": 0, \"pad_type_id\": 0, \"pad_token\": \"!\"}"));
        assertTrue(Files.readString(file).contains("\"max_length\": 4"), "the test must configure truncation");

        try (Tokenizer tokenizer = Tokenizer.load(file)) {
            assertArrayEquals(expected, tokenizer.encode(TokenizerSamples.CHATML, false));
        }
    }

    /** Malformed JSON, a model type the encoder does not implement, and an added token without content. */
    @ParameterizedTest
    @ValueSource(strings = {"{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0}",
        "{\"model\": {\"type\": \"NoSuchModel\", \"vocab\": {\"a\": 0}}}",
        "{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0}, \"merges\": []}, \"added_tokens\": [{\"id\": 1}]}"})
    void aTokenizerJsonThatDoesNotLoadIsAModelFormatErrorNamingTheFile(String json) throws IOException {
        Path file = dir.resolve("tokenizer.json");
        Files.writeString(file, json);

        var e = assertThrows(ModelFormatException.class, () -> Tokenizer.load(file));

        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }

    @Test
    void aMissingTokenizerJsonIsAModelFormatErrorNamingTheFile() {
        Path file = dir.resolve("tokenizer.json");

        var e = assertThrows(ModelFormatException.class, () -> Tokenizer.load(file));

        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }

    @Test
    void aNegativeIdIsRejectedNamingIt() throws IOException {
        try (Tokenizer tokenizer = load()) {
            var e = assertThrows(IllegalArgumentException.class, () -> tokenizer.decode(new int[] {1, -1}, false));
            assertTrue(e.getMessage().contains("-1"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> tokenizer.tokenBytes(-1));
            assertThrows(IllegalArgumentException.class, () -> tokenizer.isSpecial(-1));
        }
    }

    /** A model's vocabulary is often padded past its tokenizer's; ids there decode to nothing, as in Hugging Face. */
    @Test
    void anIdPastTheTokenizerDecodesToNothing() throws IOException {
        try (Tokenizer tokenizer = load()) {
            int size = tokenizer.vocabSize();
            assertEquals(tokenizer.decode(new int[] {1}, false), tokenizer.decode(new int[] {1, size, size + 100}, false));
            assertEquals(0, tokenizer.tokenBytes(size).length);
            assertFalse(tokenizer.isSpecial(size + 1));
        }
    }

    @Test
    void anyTextEncodesEvenUnpairedSurrogatesAndNul() throws IOException {
        try (Tokenizer tokenizer = load()) {
            assertEquals("a\uFFFDb\uFFFD", tokenizer.decode(tokenizer.encode("a\uD800b\uDC00", false), false));
            assertArrayEquals(tokenizer.encode("a\uFFFDb\uFFFD", false), tokenizer.encode("a\uD800b\uDC00", false));
            assertEquals("x\u0000y", tokenizer.decode(tokenizer.encode("x\u0000y", false), false));
            assertEquals("😀", tokenizer.decode(tokenizer.encode("😀", false), false));
        }
    }

    @Test
    void encodesTheSameFromManyThreads() throws Exception {
        try (Tokenizer tokenizer = load(); ExecutorService pool = Executors.newFixedThreadPool(8)) {
            int[] expected = tokenizer.encode(TokenizerSamples.CHATML, false);
            List<Future<int[]>> results = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                results.add(pool.submit(() -> tokenizer.encode(TokenizerSamples.CHATML, false)));
            }
            for (Future<int[]> result : results) {
                assertArrayEquals(expected, result.get());
            }
        }
    }

    @Test
    void aClosedTokenizerRefusesEveryCallAndClosingTwiceIsHarmless() throws IOException {
        Tokenizer tokenizer = load();
        tokenizer.close();

        assertDoesNotThrow(tokenizer::close);
        List<Executable> calls = List.of(() -> tokenizer.encode("Hi", false),
                () -> tokenizer.decode(new int[] {1}, false), () -> tokenizer.tokenId("Hi"),
                () -> tokenizer.tokenBytes(1), () -> tokenizer.isSpecial(1),
                tokenizer::vocabSize);
        for (Executable call : calls) {
            assertThrows(IllegalStateException.class, call);
        }
    }

    private Tokenizer load() throws IOException {
        TinyModel.write(Architecture.QWEN3, dir, 1);
        return Tokenizer.load(dir.resolve("tokenizer.json"));
    }
}
