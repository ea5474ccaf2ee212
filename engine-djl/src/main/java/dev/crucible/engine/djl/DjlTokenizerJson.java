package dev.crucible.engine.djl;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.crucible.hf.ModelFormatException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads a {@link DjlVocabulary} from a tokenizer.json: the model's vocabulary, the added tokens and the decoder's kind.
 * It streams the file and skips the rest (a real tokenizer's merges are most of its 10 MB). Stateless.
 */
final class DjlTokenizerJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private DjlTokenizerJson() {
    }

    static DjlVocabulary read(Path file) throws IOException {
        Map<String, Integer> vocab = new HashMap<>();
        JsonNode addedTokens = null;
        JsonNode decoder = null;
        try (JsonParser p = MAPPER.createParser(file.toFile())) {
            expect(p, p.nextToken(), JsonToken.START_OBJECT, "the top level");
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "added_tokens" -> addedTokens = p.readValueAsTree();
                    case "decoder" -> decoder = p.readValueAsTree();
                    case "model" -> readModel(p, vocab);
                    default -> p.skipChildren();
                }
            }
        }
        return vocabulary(vocab, addedTokens, decoder);
    }

    private static void readModel(JsonParser p, Map<String, Integer> vocab) throws IOException {
        expect(p, p.currentToken(), JsonToken.START_OBJECT, "model");
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            if (field.equals("vocab") && value == JsonToken.START_OBJECT) {
                // BPE, WordPiece, WordLevel: {"token": id, ...}
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String token = p.currentName();
                    p.nextToken();
                    vocab.put(token, p.getIntValue());
                }
            } else if (field.equals("vocab") && value == JsonToken.START_ARRAY) {
                // Unigram: [["token", score], ...], the id being the position.
                while (p.nextToken() == JsonToken.START_ARRAY) {
                    p.nextToken();
                    vocab.put(p.getText(), vocab.size());
                    while (p.nextToken() != JsonToken.END_ARRAY) {
                        p.skipChildren();
                    }
                }
            } else {
                p.skipChildren();
            }
        }
    }

    private static DjlVocabulary vocabulary(Map<String, Integer> vocab, JsonNode addedTokens, JsonNode decoder) {
        Map<String, Integer> ids = new HashMap<>(vocab);
        Map<Integer, String> addedContent = new HashMap<>();
        BitSet special = new BitSet();
        int size = 0;
        for (Map.Entry<String, Integer> e : vocab.entrySet()) {
            if (e.getValue() < 0) {
                throw new ModelFormatException("tokenizer.json: token '" + e.getKey() + "' has the negative id "
                        + e.getValue());
            }
            size = Math.max(size, e.getValue() + 1);
        }
        if (addedTokens != null) {
            for (JsonNode a : addedTokens) {
                int id = a.path("id").asInt(-1);
                String content = a.path("content").asText("");
                if (id < 0 || content.isEmpty()) {
                    throw new ModelFormatException("tokenizer.json: added token " + a + " has no id or content");
                }
                ids.put(content, id);
                addedContent.put(id, content);
                special.set(id, a.path("special").asBoolean(false));
                size = Math.max(size, id + 1);
            }
        }
        String[] tokens = new String[size];
        BitSet added = new BitSet();
        vocab.forEach((token, id) -> tokens[id] = token);
        addedContent.forEach((id, content) -> {
            tokens[id] = content;
            added.set(id);
        });
        return new DjlVocabulary(tokens, ids, added, special, isByteLevel(decoder));
    }

    /** Whether the decoder is ByteLevel or a Sequence holding one. */
    private static boolean isByteLevel(JsonNode decoder) {
        if (decoder == null || decoder.isNull()) {
            return false;
        }
        if ("ByteLevel".equals(decoder.path("type").asText())) {
            return true;
        }
        for (JsonNode d : decoder.path("decoders")) {
            if (isByteLevel(d)) {
                return true;
            }
        }
        return false;
    }

    private static void expect(JsonParser p, JsonToken actual, JsonToken expected, String where) {
        if (actual != expected) {
            throw new ModelFormatException("tokenizer.json: expected " + expected + " at " + where + ", found "
                    + actual + " (line " + p.currentLocation().getLineNr() + ")");
        }
    }
}
