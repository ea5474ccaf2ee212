package dev.crucible.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crucible.hf.HfJson;
import dev.crucible.hf.tokenizer.AddedToken;
import dev.crucible.hf.tokenizer.BpeModel;
import dev.crucible.hf.tokenizer.TokenizerSpec;
import dev.crucible.hf.tokenizer.TokenizerStyle;
import dev.crucible.hf.tokenizer.TrainedTokenizer;
import java.util.List;
import java.util.Optional;

/**
 * The learn-task model's tokenizer: a byte-level BPE (the form Crucible reads) with no merges and a vocabulary of
 * the characters the task language uses, one token each (digits, operator symbols, separators), plus Qwen's end of
 * text and ChatML markers as special added tokens. Its chat template writes a conversation compactly: a user turn is
 * its content and {@code =}, an assistant turn its content and {@code <|im_end|>}, so {@code 123+45} is answered
 * after {@code 123+45=} and a turn ends at {@code <|im_end|>}, the model's end-of-sequence token.
 */
final class LearnTaskTokenizer {

    /** The vocabulary: each entry one character, its index its id. */
    static final List<String> VOCAB = List.of("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "+", "-", "*", "=",
            ",");
    static final String END_OF_TEXT = "<|endoftext|>";
    static final String IM_START = "<|im_start|>";
    static final String IM_END = "<|im_end|>";

    /** What the template writes after a user turn, before the answer. */
    static final String ANSWER_MARK = "=";

    static final String CHAT_TEMPLATE = "{%- for message in messages -%}"
            + "{%- if message.role == 'assistant' -%}{{- message.content + '<|im_end|>' -}}"
            + "{%- else -%}{{- message.content + '=' -}}{%- endif -%}"
            + "{%- endfor -%}";

    static final TrainedTokenizer TOKENIZER = new TrainedTokenizer(new BpeModel(VOCAB, List.of()),
            new TokenizerSpec(TokenizerStyle.QWEN2, List.of(new AddedToken(END_OF_TEXT, true),
                    new AddedToken(IM_START, true), new AddedToken(IM_END, true)), Optional.empty()));

    private LearnTaskTokenizer() {
    }

    /** The ids of {@code text}, which holds vocabulary characters only. */
    static int[] encode(String text) {
        int[] ids = new int[text.length()];
        for (int i = 0; i < ids.length; i++) {
            int id = VOCAB.indexOf(String.valueOf(text.charAt(i)));
            if (id < 0) {
                throw new IllegalArgumentException("'" + text.charAt(i) + "' is not in the vocabulary: " + text);
            }
            ids[i] = id;
        }
        return ids;
    }

    static int id(String token) {
        return TOKENIZER.idOf(token);
    }

    /** tokenizer_config.json: Qwen's layout with the compact chat template. */
    static String configJson(int maxLength) {
        ObjectNode o = HfJson.object();
        o.put("add_bos_token", false).put("add_prefix_space", false);
        ObjectNode decoder = o.putObject("added_tokens_decoder");
        for (AddedToken t : TOKENIZER.spec().addedTokens()) {
            decoder.putObject(Integer.toString(id(t.content()))).put("content", t.content()).put("lstrip", false)
                    .put("normalized", false).put("rstrip", false).put("single_word", false)
                    .put("special", t.special());
        }
        o.putNull("bos_token");
        o.put("chat_template", CHAT_TEMPLATE);
        o.put("clean_up_tokenization_spaces", false);
        o.put("eos_token", IM_END);
        o.put("errors", "replace");
        o.put("model_max_length", maxLength);
        o.put("pad_token", END_OF_TEXT).put("split_special_tokens", false);
        o.put("tokenizer_class", "Qwen2Tokenizer");
        o.putNull("unk_token");
        return HfJson.pretty(o);
    }
}
