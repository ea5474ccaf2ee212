package dev.crucible.hf.tiny;

import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.tokenizer.AddedToken;
import dev.crucible.hf.tokenizer.BpeModel;
import dev.crucible.hf.tokenizer.BpeTrainer;
import dev.crucible.hf.tokenizer.TokenizerSpec;
import dev.crucible.hf.tokenizer.TokenizerStyle;
import dev.crucible.hf.tokenizer.TrainedTokenizer;
import java.util.List;
import java.util.Optional;

/** The tokenizer of a tiny model: byte-level BPE trained on the built-in corpus, with the family's added tokens. */
final class TinyTokenizers {

    /** BPE vocabulary size including the 256 byte tokens; with the added tokens the ids stay below 1024. */
    static final int BPE_VOCAB = 1000;

    /** Qwen's: end of text and ChatML markers are special; reasoning and tool-call tags are added but not special. */
    static final List<AddedToken> QWEN_TOKENS = List.of(new AddedToken("<|endoftext|>", true),
            new AddedToken("<|im_start|>", true), new AddedToken("<|im_end|>", true),
            new AddedToken("<think>", false), new AddedToken("</think>", false),
            new AddedToken("<tool_call>", false), new AddedToken("</tool_call>", false));

    /** Llama 3's header and turn markers, all special. */
    static final List<AddedToken> LLAMA_TOKENS = List.of(new AddedToken("<|begin_of_text|>", true),
            new AddedToken("<|end_of_text|>", true), new AddedToken("<|start_header_id|>", true),
            new AddedToken("<|end_header_id|>", true), new AddedToken("<|eot_id|>", true));

    private TinyTokenizers() {
    }

    static TrainedTokenizer train(Architecture arch) {
        String corpus = TinyResources.text("corpus.txt");
        return switch (arch) {
            case QWEN2, QWEN3 -> trained(corpus, TokenizerStyle.QWEN2, QWEN_TOKENS, Optional.empty());
            case LLAMA -> trained(corpus, TokenizerStyle.LLAMA3, LLAMA_TOKENS, Optional.of("<|begin_of_text|>"));
        };
    }

    private static TrainedTokenizer trained(String corpus, TokenizerStyle style, List<AddedToken> added,
            Optional<String> bos) {
        BpeModel model = BpeTrainer.train(corpus, BPE_VOCAB, style);
        return new TrainedTokenizer(model, new TokenizerSpec(style, added, bos));
    }
}
