package dev.crucible.hf.tokenizer;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Hugging Face tokenizers itself (Rust, through DJL's JNI binding, natives in the jar, offline): the oracle the
 * pure-Java tokenizer is checked against. A test dependency only; nothing serves with it.
 */
final class HuggingFaceOracle {

    private HuggingFaceOracle() {
    }

    /** Hugging Face tokenizers on {@code file} as it is: no special tokens added, no truncation or padding. */
    static HuggingFaceTokenizer load(Path file) throws IOException {
        return HuggingFaceTokenizer.builder().optTokenizerPath(file).optAddSpecialTokens(false).optTruncation(false)
                .optPadding(false).build();
    }

    /** Ids as the binding gives them. */
    static long[] wide(int[] ids) {
        return Arrays.stream(ids).asLongStream().toArray();
    }
}
