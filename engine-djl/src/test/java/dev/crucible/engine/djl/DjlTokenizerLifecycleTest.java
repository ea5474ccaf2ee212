package dev.crucible.engine.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.spi.EngineException;
import dev.crucible.engine.spi.Tokenizer;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.tiny.TinyModel;
import dev.crucible.hf.tokenizer.BpeEncoder;
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

/** Loading, refusals, threads and closing of the djl tokenizer. */
class DjlTokenizerLifecycleTest {

    private static final DjlEngineProvider ENGINE = new DjlEngineProvider();

    @TempDir
    Path dir;

    @Test
    void loadsOfflineAndIgnoresTruncationAndPaddingWrittenInTokenizerJson() throws IOException {
        TinyModel.write(Architecture.QWEN3, dir, 1);
        Path file = dir.resolve("tokenizer.json");
        BpeEncoder reference = BpeEncoder.load(file);
        Files.writeString(file, Files.readString(file)
                .replace("\"truncation\": null", "\"truncation\": {\"direction\": \"Right\", \"max_length\": 4, "
                        + "\"strategy\": \"LongestFirst\", \"stride\": 0}")
                .replace("\"padding\": null", "\"padding\": {\"strategy\": {\"Fixed\": 64}, \"direction\": \"Right\", "
                        + "\"pad_to_multiple_of\": null, \"pad_id\": 0, \"pad_type_id\": 0, \"pad_token\": \"!\"}"));
        assertTrue(Files.readString(file).contains("\"max_length\": 4"), "the test must configure truncation");

        try (Tokenizer tokenizer = ENGINE.loadTokenizer(ModelFolder.read(dir))) {
            assertArrayEquals(reference.encode(TokenizerTexts.CHATML, false),
                    tokenizer.encode(TokenizerTexts.CHATML, false));
        }
        if (System.getenv("DJL_OFFLINE") == null) {
            assertEquals("true", System.getProperty("ai.djl.offline"));
        }
    }

    /** Malformed JSON, and well-formed JSON with a model type Hugging Face tokenizers rejects. */
    @ParameterizedTest
    @ValueSource(strings = {"{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0}",
        "{\"model\": {\"type\": \"NoSuchModel\", \"vocab\": {\"a\": 0}}}"})
    void aTokenizerJsonThatDoesNotLoadIsAnInvalidModelNamingTheFile(String json) throws IOException {
        TinyModel.write(Architecture.QWEN2, dir, 1);
        ModelFolder folder = ModelFolder.read(dir);
        Files.writeString(folder.tokenizerJson(), json);

        var e = assertThrows(EngineException.class, () -> ENGINE.loadTokenizer(folder));

        assertEquals(EngineException.Reason.INVALID_MODEL, e.reason());
        assertTrue(e.getMessage().contains("tokenizer.json"), e.getMessage());
    }

    @Test
    void anIdOutsideTheVocabularyIsRejectedNamingIt() throws IOException {
        try (Tokenizer tokenizer = load()) {
            int size = tokenizer.vocabSize();
            for (int id : new int[] {-1, size}) {
                var e = assertThrows(IllegalArgumentException.class, () -> tokenizer.decode(new int[] {1, id}, false));
                assertTrue(e.getMessage().contains(String.valueOf(id)), e.getMessage());
                assertThrows(IllegalArgumentException.class, () -> tokenizer.tokenBytes(id));
                assertThrows(IllegalArgumentException.class, () -> tokenizer.isSpecial(id));
            }
        }
    }

    @Test
    void anyTextEncodesEvenUnpairedSurrogatesAndNul() throws IOException {
        try (Tokenizer tokenizer = load()) {
            assertEquals("a\uFFFDb\uFFFD", tokenizer.decode(tokenizer.encode("a\uD800b\uDC00", false), false));
            assertEquals("x\u0000y", tokenizer.decode(tokenizer.encode("x\u0000y", false), false));
            assertEquals("😀", tokenizer.decode(tokenizer.encode("😀", false), false));
        }
    }

    @Test
    void encodesTheSameFromManyThreads() throws Exception {
        try (Tokenizer tokenizer = load(); ExecutorService pool = Executors.newFixedThreadPool(8)) {
            int[] expected = tokenizer.encode(TokenizerTexts.CHATML, false);
            List<Future<int[]>> results = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                results.add(pool.submit(() -> tokenizer.encode(TokenizerTexts.CHATML, false)));
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
        return ENGINE.loadTokenizer(ModelFolder.read(dir));
    }
}
