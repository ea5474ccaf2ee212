package dev.crucible.hf.tokenizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.tiny.TinyModel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The model's tokenizer ({@link Tokenizer#load}, the one every engine serves with) on the tiny models' tokenizer.json
 * files: what the runtime reads from it besides ids (token bytes, added and special tokens, the vocabulary's size),
 * and ids checked against Hugging Face tokenizers itself where a property alone would not pin them.
 */
class TokenizerTest {

    private static final Map<Architecture, Tokenizer> TOKENIZERS = new EnumMap<>(Architecture.class);
    private static final Map<Architecture, Path> FILES = new EnumMap<>(Architecture.class);

    @TempDir
    static Path root;

    @AfterAll
    static void closeTokenizers() {
        TOKENIZERS.values().forEach(Tokenizer::close);
    }

    /** Every architecture with each of its sample texts. */
    static Stream<Arguments> samples() {
        return Arrays.stream(Architecture.values())
                .flatMap(arch -> TokenizerSamples.all(arch).stream().map(text -> Arguments.of(arch, text)));
    }

    /** Every architecture with each of its added tokens. */
    static Stream<Arguments> specials() {
        return Arrays.stream(Architecture.values())
                .flatMap(arch -> TokenizerSamples.specials(arch).stream().map(token -> Arguments.of(arch, token)));
    }

    @ParameterizedTest
    @MethodSource("samples")
    void decodesToTheNormalizedText(Architecture arch, String text) throws IOException {
        Tokenizer tokenizer = tokenizer(arch);
        assertEquals(TokenizerSamples.normalized(arch, text), tokenizer.decode(tokenizer.encode(text, false), false),
                "round trip of " + text);
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
    @MethodSource("samples")
    void theBytesOfTheTokensMakeUpTheTextsUtf8(Architecture arch, String text) throws IOException {
        Tokenizer tokenizer = tokenizer(arch);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int id : tokenizer.encode(text, false)) {
            bytes.writeBytes(tokenizer.tokenBytes(id));
        }
        assertArrayEquals(TokenizerSamples.normalized(arch, text).getBytes(StandardCharsets.UTF_8),
                bytes.toByteArray(), text);
    }

    @ParameterizedTest
    @MethodSource("specials")
    void addedTokensAreSingleIdsSpecialAsTheTokenizerSays(Architecture arch, String token) throws IOException {
        Tokenizer tokenizer = tokenizer(arch);
        int[] ids = tokenizer.encode(token, false);
        assertEquals(1, ids.length, token);
        assertEquals(OptionalInt.of(ids[0]), tokenizer.tokenId(token));
        assertEquals(TokenizerSamples.special(arch, token), tokenizer.isSpecial(ids[0]), token);
        assertArrayEquals(token.getBytes(StandardCharsets.UTF_8), tokenizer.tokenBytes(ids[0]));
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void plainTextAndUnknownTokensAreNotSpecial(Architecture arch) throws IOException {
        Tokenizer tokenizer = tokenizer(arch);
        int hello = tokenizer.encode("Hello", false)[0];
        assertFalse(tokenizer.isSpecial(hello));
        assertEquals(OptionalInt.empty(), tokenizer.tokenId("<|no such token|>"));
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void theVocabularyCountsTheAddedTokensAsHuggingFaceDoes(Architecture arch) throws IOException {
        Tokenizer tokenizer = tokenizer(arch);

        try (HuggingFaceTokenizer hf = HuggingFaceOracle.load(FILES.get(arch))) {
            String last = TokenizerSamples.specials(arch).getLast();
            assertEquals(hf.encode(last, false, false).getIds()[0] + 1, tokenizer.vocabSize());
        }
        int last = tokenizer.tokenId(TokenizerSamples.specials(arch).getLast()).orElseThrow();
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
    void neverTruncatesALongTextAndEncodesItAsHuggingFaceDoes(Architecture arch) throws IOException {
        String text = TokenizerSamples.CHATML.repeat(100);
        int[] ids = tokenizer(arch).encode(text, false);

        assertTrue(ids.length > 2000, "tokens: " + ids.length);
        try (HuggingFaceTokenizer hf = HuggingFaceOracle.load(FILES.get(arch))) {
            assertArrayEquals(hf.encode(text, false, false).getIds(), HuggingFaceOracle.wide(ids));
        }
    }

    private static synchronized Tokenizer tokenizer(Architecture arch) throws IOException {
        if (!TOKENIZERS.containsKey(arch)) {
            Path dir = root.resolve(arch.name());
            TinyModel.write(arch, dir, 1);
            FILES.put(arch, dir.resolve("tokenizer.json"));
            TOKENIZERS.put(arch, Tokenizer.load(dir.resolve("tokenizer.json")));
        }
        return TOKENIZERS.get(arch);
    }
}
