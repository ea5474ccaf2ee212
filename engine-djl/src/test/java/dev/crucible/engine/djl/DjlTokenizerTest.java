package dev.crucible.engine.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.spi.Tokenizer;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.tiny.TinyModel;
import dev.crucible.hf.tokenizer.BpeEncoder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.EnumMap;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The djl tokenizer on the tiny models' tokenizer.json files, against hf-format's pure-Java {@link BpeEncoder}, the
 * independent reference that was itself checked against Hugging Face tokenizers.
 */
class DjlTokenizerTest {

    private static final DjlEngineProvider ENGINE = new DjlEngineProvider();
    private static final Map<Architecture, Tokenizer> TOKENIZERS = new EnumMap<>(Architecture.class);
    private static final Map<Architecture, BpeEncoder> REFERENCES = new EnumMap<>(Architecture.class);

    @TempDir
    static Path root;

    @AfterAll
    static void closeTokenizers() {
        TOKENIZERS.values().forEach(Tokenizer::close);
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void encodesEveryTextAsTheReferenceEncoderWithAndWithoutThePostProcessorsTokens(Architecture arch)
            throws IOException {
        Tokenizer tokenizer = tokenizer(arch);
        for (String text : TokenizerTexts.all(arch)) {
            for (boolean special : new boolean[] {false, true}) {
                assertArrayEquals(reference(arch).encode(text, special), tokenizer.encode(text, special),
                        arch + " addSpecialTokens=" + special + " text=" + text);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void decodesToTheNormalizedTextAndAsTheReferenceDoes(Architecture arch) throws IOException {
        Tokenizer tokenizer = tokenizer(arch);
        for (String text : TokenizerTexts.all(arch)) {
            int[] ids = tokenizer.encode(text, false);
            assertEquals(normalized(arch, text), tokenizer.decode(ids, false), "round trip of " + text);
            for (boolean skip : new boolean[] {false, true}) {
                assertEquals(reference(arch).decode(ids, skip), tokenizer.decode(ids, skip), text);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void skippingSpecialTokensDropsOnlyTheSpecialOnes(Architecture arch) throws IOException {
        Tokenizer tokenizer = tokenizer(arch);
        String text = arch == Architecture.LLAMA
                ? "<|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>"
                : "<|im_start|>user\nHi <think>hmm</think><|im_end|>";
        String expected = arch == Architecture.LLAMA ? "user\n\nHi" : "user\nHi <think>hmm</think>";

        assertEquals(expected, tokenizer.decode(tokenizer.encode(text, false), true));
        assertEquals(text, tokenizer.decode(tokenizer.encode(text, false), false));
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void theBytesOfTheTokensMakeUpTheTextsUtf8(Architecture arch) throws IOException {
        Tokenizer tokenizer = tokenizer(arch);
        for (String text : TokenizerTexts.all(arch)) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            for (int id : tokenizer.encode(text, false)) {
                bytes.writeBytes(tokenizer.tokenBytes(id));
            }
            assertArrayEquals(normalized(arch, text).getBytes(StandardCharsets.UTF_8), bytes.toByteArray(), text);
        }
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void addedTokensAreSingleIdsSpecialAsTheTokenizerSays(Architecture arch) throws IOException {
        Tokenizer tokenizer = tokenizer(arch);
        for (String token : TokenizerTexts.addedTokens(arch)) {
            int[] ids = tokenizer.encode(token, false);
            assertEquals(1, ids.length, token);
            assertEquals(OptionalInt.of(ids[0]), tokenizer.tokenId(token));
            assertEquals(TokenizerTexts.special(arch, token), tokenizer.isSpecial(ids[0]), token);
            assertArrayEquals(token.getBytes(StandardCharsets.UTF_8), tokenizer.tokenBytes(ids[0]));
        }
        int hello = tokenizer.encode("Hello", false)[0];
        assertFalse(tokenizer.isSpecial(hello));
        assertEquals(OptionalInt.empty(), tokenizer.tokenId("<|no such token|>"));
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void theVocabularyCountsTheAddedTokens(Architecture arch) throws IOException {
        Tokenizer tokenizer = tokenizer(arch);

        assertEquals(reference(arch).size(), tokenizer.vocabSize());
        int last = tokenizer.tokenId(TokenizerTexts.addedTokens(arch).getLast()).orElseThrow();
        assertEquals(tokenizer.vocabSize() - 1, last);
        // Vocabulary strings are byte-level: a space is written as 'Ġ'.
        assertArrayEquals(" ".getBytes(StandardCharsets.UTF_8),
                tokenizer.tokenBytes(tokenizer.tokenId("\u0120").orElseThrow()));
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void onlyLlamasPostProcessorAddsATokenAndOnlyWhenAsked(Architecture arch) throws IOException {
        Tokenizer tokenizer = tokenizer(arch);
        int[] plain = tokenizer.encode("Hi", false);
        int[] withSpecial = tokenizer.encode("Hi", true);

        if (arch == Architecture.LLAMA) {
            assertEquals(plain.length + 1, withSpecial.length);
            assertEquals(tokenizer.tokenId("<|begin_of_text|>").orElseThrow(), withSpecial[0]);
        } else {
            assertArrayEquals(plain, withSpecial);
        }
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void neverTruncatesALongText(Architecture arch) throws IOException {
        String text = TokenizerTexts.CHATML.repeat(100);
        int[] ids = tokenizer(arch).encode(text, false);

        assertTrue(ids.length > 2000, "tokens: " + ids.length);
        assertArrayEquals(reference(arch).encode(text, false), ids);
    }

    static String normalized(Architecture arch, String text) {
        return arch == Architecture.LLAMA ? text : Normalizer.normalize(text, Normalizer.Form.NFC);
    }

    private static synchronized Tokenizer tokenizer(Architecture arch) throws IOException {
        if (!TOKENIZERS.containsKey(arch)) {
            Path dir = root.resolve(arch.name());
            TinyModel.write(arch, dir, 1);
            TOKENIZERS.put(arch, ENGINE.loadTokenizer(ModelFolder.read(dir)));
            REFERENCES.put(arch, BpeEncoder.load(dir.resolve("tokenizer.json")));
        }
        return TOKENIZERS.get(arch);
    }

    private static BpeEncoder reference(Architecture arch) {
        return REFERENCES.get(arch);
    }
}
