package dev.crucible.hf.tokenizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crucible.hf.HfJson;
import dev.crucible.hf.ModelFormatException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TokenizerJsonTest {

    private static final String CORPUS = "the cat sat on the mat, the cat ate the rat. 123 456";

    private static TrainedTokenizer tokenizer(TokenizerStyle style, Optional<String> bos) {
        return new TrainedTokenizer(BpeTrainer.train(CORPUS, 300, style), new TokenizerSpec(style,
                List.of(new AddedToken("<s>", true), new AddedToken("<tag>", false)), bos));
    }

    @Test
    void writesTheQwen2Layout() {
        TrainedTokenizer t = tokenizer(TokenizerStyle.QWEN2, Optional.empty());
        JsonNode json = HfJson.parse(t.toJson(), "tokenizer.json");
        assertEquals("NFC", json.path("normalizer").path("type").asText());
        assertEquals("Split", json.path("pre_tokenizer").path("pretokenizers").get(0).path("type").asText());
        assertEquals(TokenizerStyle.QWEN2.regex(),
                json.path("pre_tokenizer").path("pretokenizers").get(0).path("pattern").path("Regex").asText());
        assertEquals("ByteLevel", json.path("post_processor").path("type").asText());
        assertEquals(false, json.path("model").path("ignore_merges").asBoolean());
        int size = t.model().vocab().size();
        assertEquals(size, json.path("added_tokens").get(0).path("id").asInt());
        assertEquals(false, json.path("added_tokens").get(1).path("special").asBoolean(true));
        assertEquals(size + 1, t.idOf("<tag>"));
        assertEquals(size + 2, t.size());
        assertEquals(t.model().merges().size(), json.path("model").path("merges").size());
    }

    @Test
    void writesTheLlama3LayoutWithItsBeginningOfTextTemplate() {
        TrainedTokenizer t = tokenizer(TokenizerStyle.LLAMA3, Optional.of("<s>"));
        JsonNode json = HfJson.parse(t.toJson(), "tokenizer.json");
        assertTrue(json.path("normalizer").isNull());
        assertEquals(true, json.path("model").path("ignore_merges").asBoolean());
        BpeEncoder encoder = BpeEncoder.parse(t.toJson());
        int bos = t.idOf("<s>");
        assertEquals(bos, encoder.encode("the cat", true)[0]);
        assertArrayEquals(encoder.encode("the cat", false),
                Arrays.copyOfRange(encoder.encode("the cat", true), 1, encoder.encode("the cat", true).length));
    }

    @Test
    void readsMergesWrittenAsStringsLikeMergesWrittenAsPairs() {
        String json = tokenizer(TokenizerStyle.QWEN2, Optional.empty()).toJson();
        ObjectNode root = (ObjectNode) HfJson.parse(json, "tokenizer.json");
        ArrayNode strings = HfJson.array();
        root.path("model").path("merges").forEach(m -> strings.add(m.get(0).asText() + " " + m.get(1).asText()));
        ((ObjectNode) root.path("model")).set("merges", strings);
        String text = "the rat sat on 123 cats";
        assertArrayEquals(BpeEncoder.parse(json).encode(text, false),
                BpeEncoder.parse(HfJson.compact(root)).encode(text, false));
    }

    @Test
    void refusesComponentsItDoesNotImplementNamingThem() {
        ObjectNode root = (ObjectNode) HfJson.parse(tokenizer(TokenizerStyle.QWEN2, Optional.empty()).toJson(), "t");
        ((ObjectNode) root.path("model")).put("type", "WordPiece");
        var e = assertThrows(ModelFormatException.class, () -> BpeEncoder.parse(HfJson.compact(root)));
        assertEquals("tokenizer.json: unsupported model type 'WordPiece' (supported: BPE)", e.getMessage());
    }
}
