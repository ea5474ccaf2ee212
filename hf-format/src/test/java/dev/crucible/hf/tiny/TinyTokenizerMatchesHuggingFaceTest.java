package dev.crucible.hf.tiny;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.tokenizer.BpeEncoder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The tokenizer.json a tiny model ships is checked against the real Hugging Face tokenizers (Rust, through DJL's
 * binding): it loads, and it encodes and decodes every sample exactly as the independent Java encoder does.
 */
class TinyTokenizerMatchesHuggingFaceTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void encodesAndDecodesLikeHuggingFaceTokenizers(Architecture arch) throws IOException {
        Path file = tokenizerJson(arch);
        BpeEncoder java = BpeEncoder.load(file);
        try (HuggingFaceTokenizer hf = huggingFace(file)) {
            for (String text : TokenizerSamples.all(arch)) {
                for (boolean special : new boolean[] {false, true}) {
                    long[] expected = hf.encode(text, special, false).getIds();
                    int[] actual = java.encode(text, special);
                    assertArrayEquals(expected, Arrays.stream(actual).asLongStream().toArray(),
                            arch + " special=" + special + " text=" + text);
                    for (boolean skip : new boolean[] {false, true}) {
                        assertEquals(hf.decode(expected, skip), java.decode(actual, skip), text);
                    }
                }
                String normalized = arch == Architecture.LLAMA ? text
                        : Normalizer.normalize(text, Normalizer.Form.NFC);
                assertEquals(normalized, java.decode(java.encode(text, false), false), "round trip of " + text);
            }
        }
    }

    /** A fuzz run over random mixtures of letters, digits, space kinds, symbols, emoji and special tokens. */
    @ParameterizedTest
    @EnumSource(Architecture.class)
    void agreesOnRandomText(Architecture arch) throws IOException {
        Path file = tokenizerJson(arch);
        BpeEncoder java = BpeEncoder.load(file);
        List<String> pool = new ArrayList<>(List.of("a", "Z", "é", "e\u0301", "ß", "ſ", "'", "'s", "'LL", "7", "42",
                "1234567", " ", "  ", "\t", "\n", "\r\n", "\u00A0", "\u3000", "\u2003", "\u0085", ".", "!?", "->",
                "{\"k\": 1}", "你", "好", "😀", "👍🏽", "👨‍👩‍👧", "\u200B", "<", "|", ">", "<|", "|>", "think"));
        pool.addAll(TokenizerSamples.specials(arch));
        Random random = new Random(7);
        try (HuggingFaceTokenizer hf = huggingFace(file)) {
            for (int n = 0; n < 500; n++) {
                StringBuilder text = new StringBuilder();
                for (int k = random.nextInt(12); k >= 0; k--) {
                    text.append(pool.get(random.nextInt(pool.size())));
                }
                long[] expected = hf.encode(text.toString(), false, false).getIds();
                assertArrayEquals(expected, Arrays.stream(java.encode(text.toString(), false)).asLongStream()
                        .toArray(), arch + " text=" + text);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void encodesTheWholeCorpusLikeHuggingFaceTokenizers(Architecture arch) throws IOException {
        Path file = tokenizerJson(arch);
        String corpus = TinyResources.text("corpus.txt") + Files.readString(dir.resolve("tokenizer_config.json"));
        try (HuggingFaceTokenizer hf = huggingFace(file)) {
            long[] expected = hf.encode(corpus, false, false).getIds();
            int[] actual = BpeEncoder.load(file).encode(corpus, false);
            assertArrayEquals(expected, Arrays.stream(actual).asLongStream().toArray());
        }
    }

    /** The tiny model of {@code arch}, written to the test's folder, by its tokenizer.json. */
    private Path tokenizerJson(Architecture arch) throws IOException {
        TinyModel.write(arch, dir, 1);
        return dir.resolve("tokenizer.json");
    }

    /** Hugging Face tokenizers on {@code file} as it is: no special tokens added, no truncation or padding. */
    private static HuggingFaceTokenizer huggingFace(Path file) throws IOException {
        return HuggingFaceTokenizer.builder().optTokenizerPath(file).optAddSpecialTokens(false).optTruncation(false)
                .optPadding(false).build();
    }
}
