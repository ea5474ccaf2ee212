package dev.crucible.hf.tiny;

import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.config.GenerationConfig;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.config.RopeScaling;
import dev.crucible.hf.tokenizer.TrainedTokenizer;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * The tiny models' shapes and generation defaults. Every architecture has hidden size 64, 2 layers, 4 query heads
 * over 2 key/value heads and an MLP of 128; the family's quirks are kept: Qwen2's q/k/v biases and tied embeddings,
 * Qwen3's explicit head_dim (32, deliberately not hidden/heads) and q/k norms, Llama 3.1's untied head and rope
 * scaling. The vocabulary is the tokenizer's size rounded up to a multiple of 64.
 */
final class TinyConfigs {

    static final int HIDDEN = 64;
    static final int LAYERS = 2;
    static final int HEADS = 4;
    static final int KV_HEADS = 2;
    static final int INTERMEDIATE = 128;

    private TinyConfigs() {
    }

    static ModelConfig config(Architecture arch, TrainedTokenizer tok) {
        int vocab = (tok.size() + 63) / 64 * 64;
        return switch (arch) {
            case QWEN2 -> new ModelConfig(arch, HIDDEN, INTERMEDIATE, LAYERS, HEADS, KV_HEADS, HIDDEN / HEADS, vocab,
                    1e-6, 1_000_000.0, new RopeScaling.Unscaled(), 32768, true, false,
                    OptionalInt.of(tok.idOf("<|endoftext|>")), List.of(tok.idOf("<|im_end|>")), Optional.of("float32"));
            case QWEN3 -> new ModelConfig(arch, HIDDEN, INTERMEDIATE, LAYERS, HEADS, KV_HEADS, 32, vocab, 1e-6,
                    1_000_000.0, new RopeScaling.Unscaled(), 40960, true, false,
                    OptionalInt.of(tok.idOf("<|endoftext|>")), List.of(tok.idOf("<|im_end|>")), Optional.of("float32"));
            case LLAMA -> new ModelConfig(arch, HIDDEN, INTERMEDIATE, LAYERS, HEADS, KV_HEADS, HIDDEN / HEADS, vocab,
                    1e-5, 500_000.0, new RopeScaling.Llama3(8.0, 1.0, 4.0, 8192), 131072, false, false,
                    OptionalInt.of(tok.idOf("<|begin_of_text|>")),
                    List.of(tok.idOf("<|end_of_text|>"), tok.idOf("<|eot_id|>")), Optional.of("float32"));
        };
    }

    /** Sampling defaults in the style of each family's instruct models; eos lists both end tokens. */
    static GenerationConfig generation(Architecture arch, TrainedTokenizer tok) {
        return switch (arch) {
            case QWEN2, QWEN3 -> sampling(tok.idOf("<|endoftext|>"),
                    List.of(tok.idOf("<|im_end|>"), tok.idOf("<|endoftext|>")), tok.idOf("<|endoftext|>"),
                    arch == Architecture.QWEN2 ? 0.7 : 0.6, arch == Architecture.QWEN2 ? 0.8 : 0.95,
                    OptionalInt.of(20), arch == Architecture.QWEN2 ? OptionalDouble.of(1.05) : OptionalDouble.empty());
            case LLAMA -> sampling(tok.idOf("<|begin_of_text|>"),
                    List.of(tok.idOf("<|end_of_text|>"), tok.idOf("<|eot_id|>")), tok.idOf("<|end_of_text|>"), 0.6,
                    0.9, OptionalInt.empty(), OptionalDouble.empty());
        };
    }

    private static GenerationConfig sampling(int bos, List<Integer> eos, int pad, double temperature, double topP,
            OptionalInt topK, OptionalDouble repetitionPenalty) {
        return new GenerationConfig(OptionalInt.of(bos), eos, OptionalInt.of(pad), Optional.of(true),
                OptionalDouble.of(temperature), OptionalDouble.of(topP), topK, OptionalDouble.empty(),
                repetitionPenalty, OptionalInt.empty(), OptionalInt.empty());
    }
}
