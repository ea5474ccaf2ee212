package dev.crucible.hf.tokenizer;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crucible.hf.HfJson;
import java.util.List;

/** Builds a tokenizer.json in the layout of Qwen2's (NFC, split, ByteLevel) or Llama 3's (BOS template) files. */
final class TokenizerJsonWriter {

    private TokenizerJsonWriter() {
    }

    static String write(TrainedTokenizer t) {
        TokenizerStyle style = t.spec().style();
        ObjectNode root = HfJson.object();
        root.put("version", "1.0");
        root.putNull("truncation");
        root.putNull("padding");
        ArrayNode added = root.putArray("added_tokens");
        int id = t.model().vocab().size();
        for (AddedToken a : t.spec().addedTokens()) {
            added.addObject().put("id", id++).put("content", a.content()).put("single_word", false)
                    .put("lstrip", false).put("rstrip", false).put("normalized", false).put("special", a.special());
        }
        if (style.nfc()) {
            root.putObject("normalizer").put("type", "NFC");
        } else {
            root.putNull("normalizer");
        }
        ObjectNode pre = root.putObject("pre_tokenizer").put("type", "Sequence");
        ArrayNode steps = pre.putArray("pretokenizers");
        ObjectNode split = steps.addObject().put("type", "Split");
        split.putObject("pattern").put("Regex", style.regex());
        split.put("behavior", "Isolated").put("invert", false);
        steps.add(byteLevel(false, style == TokenizerStyle.LLAMA3, false));
        root.set("post_processor", postProcessor(t));
        root.set("decoder", byteLevel(false, false, false));
        root.set("model", model(t.model(), style));
        return HfJson.pretty(root);
    }

    private static ObjectNode postProcessor(TrainedTokenizer t) {
        ObjectNode byteLevel = byteLevel(false, false, false);
        if (t.spec().prependedToken().isEmpty()) {
            return byteLevel;
        }
        String bos = t.spec().prependedToken().get();
        ObjectNode template = HfJson.object().put("type", "TemplateProcessing");
        ArrayNode single = template.putArray("single");
        single.addObject().putObject("SpecialToken").put("id", bos).put("type_id", 0);
        single.addObject().putObject("Sequence").put("id", "A").put("type_id", 0);
        ArrayNode pair = template.putArray("pair");
        pair.addAll(single.deepCopy());
        pair.addObject().putObject("SpecialToken").put("id", bos).put("type_id", 1);
        pair.addObject().putObject("Sequence").put("id", "B").put("type_id", 1);
        ObjectNode special = template.putObject("special_tokens").putObject(bos).put("id", bos);
        special.putArray("ids").add(t.idOf(bos));
        special.putArray("tokens").add(bos);
        ObjectNode sequence = HfJson.object().put("type", "Sequence");
        sequence.putArray("processors").add(byteLevel).add(template);
        return sequence;
    }

    private static ObjectNode byteLevel(boolean addPrefixSpace, boolean trimOffsets, boolean useRegex) {
        return HfJson.object().put("type", "ByteLevel").put("add_prefix_space", addPrefixSpace)
                .put("trim_offsets", trimOffsets).put("use_regex", useRegex);
    }

    private static ObjectNode model(BpeModel bpe, TokenizerStyle style) {
        ObjectNode model = HfJson.object().put("type", "BPE").putNull("dropout").putNull("unk_token")
                .put("continuing_subword_prefix", "").put("end_of_word_suffix", "").put("fuse_unk", false)
                .put("byte_fallback", false).put("ignore_merges", style.ignoreMerges());
        ObjectNode vocab = model.putObject("vocab");
        List<String> tokens = bpe.vocab();
        for (int i = 0; i < tokens.size(); i++) {
            vocab.put(tokens.get(i), i);
        }
        ArrayNode merges = model.putArray("merges");
        for (Merge m : bpe.merges()) {
            merges.addArray().add(m.left()).add(m.right());
        }
        return model;
    }
}
