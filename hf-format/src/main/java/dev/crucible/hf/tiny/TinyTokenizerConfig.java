package dev.crucible.hf.tiny;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crucible.hf.HfJson;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.tokenizer.AddedToken;
import dev.crucible.hf.tokenizer.TrainedTokenizer;

/** The tiny models' tokenizer_config.json, laid out as the family's own files are, with the chat template. */
final class TinyTokenizerConfig {

    private TinyTokenizerConfig() {
    }

    static String json(Architecture arch, TrainedTokenizer tok, int maxLength) {
        boolean qwen = arch != Architecture.LLAMA;
        ObjectNode o = HfJson.object();
        if (qwen) {
            o.put("add_bos_token", false).put("add_prefix_space", false);
        }
        ObjectNode decoder = o.putObject("added_tokens_decoder");
        for (AddedToken t : tok.spec().addedTokens()) {
            decoder.putObject(Integer.toString(tok.idOf(t.content()))).put("content", t.content())
                    .put("lstrip", false).put("normalized", false).put("rstrip", false).put("single_word", false)
                    .put("special", t.special());
        }
        if (qwen) {
            o.putArray("additional_special_tokens").add("<|im_start|>").add("<|im_end|>");
            o.putNull("bos_token");
        } else {
            o.put("bos_token", "<|begin_of_text|>");
        }
        o.put("chat_template", TinyResources.text(arch.modelType() + ".jinja"));
        o.put("clean_up_tokenization_spaces", !qwen);
        o.put("eos_token", qwen ? "<|im_end|>" : "<|eot_id|>");
        if (qwen) {
            o.put("errors", "replace");
        } else {
            o.putArray("model_input_names").add("input_ids").add("attention_mask");
        }
        o.put("model_max_length", maxLength);
        if (qwen) {
            o.put("pad_token", "<|endoftext|>").put("split_special_tokens", false);
        }
        o.put("tokenizer_class", qwen ? "Qwen2Tokenizer" : "PreTrainedTokenizerFast");
        if (qwen) {
            o.putNull("unk_token");
        }
        return HfJson.pretty(o);
    }
}
