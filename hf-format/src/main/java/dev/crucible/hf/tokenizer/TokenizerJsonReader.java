package dev.crucible.hf.tokenizer;

import com.fasterxml.jackson.databind.JsonNode;
import dev.crucible.hf.HfJson;
import dev.crucible.hf.ModelFormatException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the parts of a tokenizer.json that {@link BpeEncoder} implements: a BPE model, an NFC or absent normalizer,
 * a Split-regex-then-ByteLevel pre-tokenizer, and ByteLevel/TemplateProcessing post-processors.
 */
final class TokenizerJsonReader {

    private static final String FILE = "tokenizer.json";

    private TokenizerJsonReader() {
    }

    static EncoderTables read(String json) {
        JsonNode root = HfJson.parse(json, FILE);
        JsonNode model = root.path("model");
        if (!"BPE".equals(model.path("type").asText())) {
            throw fail("unsupported model type '" + model.path("type").asText() + "' (supported: BPE)");
        }
        Map<String, Integer> vocab = new HashMap<>();
        model.path("vocab").properties().forEach(e -> vocab.put(e.getKey(), e.getValue().intValue()));
        List<Merge> merges = new ArrayList<>();
        for (JsonNode m : model.path("merges")) {
            merges.add(m.isArray() ? new Merge(m.get(0).asText(), m.get(1).asText()) : splitMerge(m.asText()));
        }
        Map<String, Integer> added = new LinkedHashMap<>();
        Set<Integer> special = new HashSet<>();
        for (JsonNode a : root.path("added_tokens")) {
            if (a.path("content").asText("").isEmpty() || a.path("id").intValue() < 0) {
                throw fail("added token " + a + " has no id or content");
            }
            added.put(a.path("content").asText(), a.path("id").intValue());
            if (a.path("special").asBoolean()) {
                special.add(a.path("id").intValue());
            }
        }
        List<Integer> prefix = new ArrayList<>();
        List<Integer> suffix = new ArrayList<>();
        postProcessor(root.path("post_processor"), prefix, suffix);
        BpeMerges bpe = new BpeMerges(vocab, merges, model.path("ignore_merges").asBoolean(false));
        return new EncoderTables(vocab, bpe, added, special, splitRegex(root.path("pre_tokenizer")),
                normalizer(root.path("normalizer")), prefix, suffix);
    }

    private static boolean normalizer(JsonNode n) {
        if (n.isMissingNode() || n.isNull()) {
            return false;
        }
        if (n.path("type").asText().equals("NFC")) {
            return true;
        }
        throw fail("unsupported normalizer " + n.path("type").asText());
    }

    private static Pattern splitRegex(JsonNode pre) {
        JsonNode steps = pre.path("pretokenizers");
        if (!"Sequence".equals(pre.path("type").asText()) || steps.size() != 2
                || !"Split".equals(steps.get(0).path("type").asText())
                || !"ByteLevel".equals(steps.get(1).path("type").asText())
                || steps.get(1).path("use_regex").asBoolean() || steps.get(1).path("add_prefix_space").asBoolean()) {
            throw fail("unsupported pre_tokenizer (supported: Sequence of Split regex and ByteLevel without regex)");
        }
        JsonNode split = steps.get(0);
        if (!split.path("pattern").has("Regex") || !"Isolated".equals(split.path("behavior").asText())
                || split.path("invert").asBoolean()) {
            throw fail("unsupported Split pre-tokenizer (supported: Regex pattern, Isolated, not inverted)");
        }
        return PreTokenizerRegex.compile(split.path("pattern").path("Regex").asText());
    }

    /** Collects the ids a TemplateProcessing puts before and after sequence A; ByteLevel adds nothing. */
    private static void postProcessor(JsonNode p, List<Integer> prefix, List<Integer> suffix) {
        String type = p.path("type").asText();
        switch (type) {
            case "", "ByteLevel" -> { }
            case "Sequence" -> p.path("processors").forEach(q -> postProcessor(q, prefix, suffix));
            case "TemplateProcessing" -> {
                List<Integer> target = prefix;
                for (JsonNode piece : p.path("single")) {
                    if (piece.has("Sequence")) {
                        target = suffix;
                    } else {
                        String id = piece.path("SpecialToken").path("id").asText();
                        for (JsonNode i : p.path("special_tokens").path(id).path("ids")) {
                            target.add(i.intValue());
                        }
                    }
                }
            }
            default -> throw fail("unsupported post_processor " + type);
        }
    }

    private static Merge splitMerge(String merge) {
        int space = merge.indexOf(' ');
        if (space < 0) {
            throw fail("merge '" + merge + "' has no space");
        }
        return new Merge(merge.substring(0, space), merge.substring(space + 1));
    }

    private static ModelFormatException fail(String message) {
        return new ModelFormatException(FILE + ": " + message);
    }
}
