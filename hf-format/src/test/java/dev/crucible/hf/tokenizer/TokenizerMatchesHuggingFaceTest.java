package dev.crucible.hf.tokenizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.tiny.TinyModel;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The tokenizer every engine serves with ({@link Tokenizer#load}) against Hugging Face tokenizers itself (Rust,
 * through DJL's binding, a test dependency only), on tokenizer.json files the test makes: the tiny models' (trained on
 * their corpus) and tokenizers trained on generated text, each with the real Qwen2/Qwen3 or Llama 3 split regex,
 * normalizer and added tokens. Texts are the samples and many seeded random ones (unicode of many scripts, combining
 * marks, emoji sequences, whitespace and digit runs, contractions, added tokens whole and broken), so it runs in CI
 * with nothing downloaded.
 */
class TokenizerMatchesHuggingFaceTest {

    private static final int RANDOM_TEXTS = 400;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void encodesAndDecodesTheSamplesLikeHuggingFaceTokenizers(Architecture arch) throws IOException {
        Path file = tinyTokenizerJson(arch);
        try (Tokenizer java = Tokenizer.load(file); HuggingFaceTokenizer hf = HuggingFaceOracle.load(file)) {
            for (String text : TokenizerSamples.all(arch)) {
                assertSame(hf, java, text, arch.name());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void encodesAndDecodesGeneratedTextLikeHuggingFaceTokenizers(Architecture arch) throws IOException {
        Path file = tinyTokenizerJson(arch);
        Random random = new Random(7 + arch.ordinal());
        try (Tokenizer java = Tokenizer.load(file); HuggingFaceTokenizer hf = HuggingFaceOracle.load(file)) {
            for (int n = 0; n < RANDOM_TEXTS; n++) {
                assertSame(hf, java, TextGenerator.text(random, TokenizerSamples.specials(arch)), arch.name());
            }
        }
    }

    /** A tokenizer trained on generated text has merges the tiny corpus never made (scripts, emoji, runs). */
    @ParameterizedTest
    @EnumSource(TokenizerStyle.class)
    void aTokenizerTrainedOnGeneratedTextEncodesAndDecodesLikeHuggingFaceTokenizers(TokenizerStyle style)
            throws IOException {
        Random random = new Random(11 + style.ordinal());
        StringBuilder corpus = new StringBuilder();
        for (int n = 0; n < 300; n++) {
            corpus.append(TextGenerator.text(random, List.of())).append('\n');
        }
        List<AddedToken> added = List.of(new AddedToken("<|bos|>", true), new AddedToken("<|eot|>", true),
                new AddedToken("<tag>", false), new AddedToken("<tag>>", false));
        Optional<String> bos = style == TokenizerStyle.LLAMA3 ? Optional.of("<|bos|>") : Optional.empty();
        Path file = dir.resolve("trained-" + style + ".json");
        new TrainedTokenizer(BpeTrainer.train(corpus.toString(), 1200, style), new TokenizerSpec(style, added, bos))
                .write(file);
        List<String> specials = added.stream().map(AddedToken::content).toList();
        try (Tokenizer java = Tokenizer.load(file); HuggingFaceTokenizer hf = HuggingFaceOracle.load(file)) {
            for (int n = 0; n < RANDOM_TEXTS; n++) {
                assertSame(hf, java, TextGenerator.text(random, specials), style.name());
            }
            assertDecodesIdsAndTokensAlike(hf, java, random, style.name());
        }
    }

    /** Random id sequences, broken UTF-8 included, and every token alone, decode as Hugging Face decodes them. */
    @ParameterizedTest
    @EnumSource(Architecture.class)
    void decodesAnyIdsAndEveryTokenLikeHuggingFaceTokenizers(Architecture arch) throws IOException {
        Path file = tinyTokenizerJson(arch);
        try (Tokenizer java = Tokenizer.load(file); HuggingFaceTokenizer hf = HuggingFaceOracle.load(file)) {
            assertDecodesIdsAndTokensAlike(hf, java, new Random(3 + arch.ordinal()), arch.name());
        }
    }

    /** Pieces the split regex leaves whole however long they are: runs of spaces, punctuation and letters. */
    @ParameterizedTest
    @EnumSource(Architecture.class)
    void encodesLongRunsLikeHuggingFaceTokenizers(Architecture arch) throws IOException {
        Path file = tinyTokenizerJson(arch);
        List<String> runs = List.of(" ".repeat(20_000) + "x", "!".repeat(20_000), "=-".repeat(10_000),
                "ab".repeat(10_000), "the".repeat(5_000), "\n".repeat(10_000), "😀".repeat(3_000), "7".repeat(9_999));
        try (Tokenizer java = Tokenizer.load(file); HuggingFaceTokenizer hf = HuggingFaceOracle.load(file)) {
            for (String run : runs) {
                assertArrayEquals(hf.encode(run, false, false).getIds(), HuggingFaceOracle.wide(java.encode(run,
                        false)), arch + " run of " + TextGenerator.escaped(run.substring(0, 4)));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void encodesTheWholeCorpusLikeHuggingFaceTokenizers(Architecture arch) throws IOException {
        Path file = tinyTokenizerJson(arch);
        String corpus;
        try (InputStream in = TinyModel.class.getResourceAsStream("corpus.txt")) {
            corpus = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    + Files.readString(dir.resolve("tokenizer_config.json"));
        }
        try (Tokenizer java = Tokenizer.load(file); HuggingFaceTokenizer hf = HuggingFaceOracle.load(file)) {
            assertArrayEquals(hf.encode(corpus, false, false).getIds(), HuggingFaceOracle.wide(java.encode(corpus,
                    false)));
        }
    }

    /** Encoding with and without the post-processor's tokens, and decoding with and without special tokens. */
    private static void assertSame(HuggingFaceTokenizer hf, Tokenizer java, String text, String tokenizer) {
        for (boolean special : new boolean[] {false, true}) {
            long[] expected = hf.encode(text, special, false).getIds();
            int[] actual = java.encode(text, special);
            assertArrayEquals(expected, HuggingFaceOracle.wide(actual),
                    tokenizer + " addSpecialTokens=" + special + " text=" + TextGenerator.escaped(text));
            for (boolean skip : new boolean[] {false, true}) {
                assertEquals(hf.decode(expected, skip), java.decode(actual, skip),
                        tokenizer + " skipSpecialTokens=" + skip + " text=" + TextGenerator.escaped(text));
            }
        }
    }

    private static void assertDecodesIdsAndTokensAlike(HuggingFaceTokenizer hf, Tokenizer java, Random random,
            String tokenizer) {
        int size = java.vocabSize();
        for (int n = 0; n < RANDOM_TEXTS; n++) {
            // past the tokenizer too: a model's vocabulary is often padded beyond it, and a sampler can draw those ids
            int[] ids = random.ints(random.nextInt(1, 12), 0, size + 64).toArray();
            for (boolean skip : new boolean[] {false, true}) {
                assertEquals(hf.decode(HuggingFaceOracle.wide(ids), skip), java.decode(ids, skip),
                        tokenizer + " skipSpecialTokens=" + skip + " ids=" + Arrays.toString(ids));
            }
        }
        for (int id = 0; id < size + 64; id++) {
            assertEquals(hf.decode(new long[] {id}, false), new String(java.tokenBytes(id), StandardCharsets.UTF_8),
                    tokenizer + " token " + id);
        }
    }

    /** The tiny model of {@code arch}, written to the test's folder, by its tokenizer.json. */
    private Path tinyTokenizerJson(Architecture arch) throws IOException {
        TinyModel.write(arch, dir, 1);
        return dir.resolve("tokenizer.json");
    }
}
