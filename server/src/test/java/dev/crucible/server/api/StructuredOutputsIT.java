package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.runtime.structured.ByteDfa;
import dev.crucible.runtime.structured.OutputConstraint;
import dev.crucible.runtime.structured.OutputConstraints;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Structured outputs from a tiny random-weight model: its text is noise, so output that matches the constraint on
 * every seed shows the mask at work.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StructuredOutputsIT {

    private static final JsonMapper JSON = JsonMapper.createDefault();
    private static final int SEEDS = 20;
    @AutoClose
    private final TestServer server = TestServer.start(Map.of());
    private final Api api = server.api(server.newKey("olga"));

    private static Map<String, Object> request(Object... pairs) {
        return RequestBodies.chat("Describe a person", pairs);
    }

    private static Map<String, Object> choice(Api.Reply reply) {
        assertEquals(200, reply.status(), reply.toString());
        return reply.firstChoice();
    }

    @SuppressWarnings("unchecked")
    private static String content(Map<String, Object> choice) {
        return (String) ((Map<String, Object>) choice.get("message")).get("content");
    }

    private static Object parse(String text) {
        try {
            return JSON.readValue(text, Argument.OBJECT_ARGUMENT);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    private static Map<String, Object> personSchema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("name", Map.of("type", "string", "maxLength", 10));
        properties.put("age", Map.of("type", "integer", "minimum", 0, "maximum", 120));
        properties.put("color", Map.of("enum", List.of("red", "green", "blue")));
        properties.put("member", Map.of("type", "boolean"));
        properties.put("tags", Map.of("type", "array", "items", Map.of("type", "string", "maxLength", 5),
                "maxItems", 2));
        return Map.of("type", "object", "properties", properties, "required",
                List.of("name", "age", "color", "member", "tags"));
    }

    @SuppressWarnings("unchecked")
    private static void assertPerson(String text) {
        Map<String, Object> person = assertInstanceOf(Map.class, parse(text), text);
        assertEquals(List.of("name", "age", "color", "member", "tags"), List.copyOf(person.keySet()), text);
        assertTrue(((String) person.get("name")).codePointCount(0, ((String) person.get("name")).length()) <= 10, text);
        int age = ((Number) person.get("age")).intValue();
        assertTrue(age >= 0 && age <= 120 && person.get("age") instanceof Integer, text);
        assertTrue(List.of("red", "green", "blue").contains(person.get("color")), text);
        assertInstanceOf(Boolean.class, person.get("member"), text);
        List<Object> tags = (List<Object>) person.get("tags");
        assertTrue(tags.size() <= 2 && tags.stream().allMatch(t -> t instanceof String s && s.length() <= 5), text);
    }

    @Test
    void jsonSchemaOutputParsesAndValidatesOnEverySeed() {
        for (int seed = 0; seed < SEEDS; seed++) {
            Map<String, Object> choice = choice(api.post("/v1/chat/completions", request("seed", seed,
                    "max_tokens", 400, "structured_outputs", Map.of("json", personSchema(),
                            "disable_any_whitespace", true))));
            assertEquals("stop", choice.get("finish_reason"), choice.toString());
            assertPerson(content(choice));
        }
    }

    /**
     * With vLLM's default whitespace ({@code [ \n\t]*} between tokens) a random model may write whitespace until
     * {@code max_tokens}, so each output is checked against the same automaton: a valid prefix when cut by length,
     * a whole match when stopped.
     */
    private static void assertValidPrefix(Outcome<OutputConstraint> compiled, Map<String, Object> choice) {
        ByteDfa dfa = ((Outcome.Done<OutputConstraint>) compiled).value().dfa();
        String text = content(choice);
        int state = dfa.step(dfa.start(), text.getBytes(StandardCharsets.UTF_8));
        assertTrue(state != ByteDfa.DEAD, "not a prefix of a valid output: " + text);
        if (choice.get("finish_reason").equals("stop")) {
            assertTrue(dfa.accepts(state), "stopped before the output was complete: " + text);
            parse(text);
        } else {
            assertEquals("length", choice.get("finish_reason"));
        }
    }

    @Test
    void responseFormatJsonSchemaWithAnyWhitespaceIsAValidPrefixOrValidJson() {
        Outcome<OutputConstraint> compiled = new OutputConstraints(1).jsonSchema("x", personSchema(),
                OutputConstraints.ANY_WHITESPACE, false);
        for (int seed = 0; seed < 3; seed++) {
            Map<String, Object> choice = choice(api.post("/v1/chat/completions", request("seed", seed,
                    "max_tokens", 100, "response_format", Map.of("type", "json_schema", "json_schema",
                            Map.of("name", "person", "schema", personSchema())))));
            assertTrue(content(choice).startsWith("{"), content(choice));
            assertValidPrefix(compiled, choice);
        }
    }

    @Test
    void jsonObjectOutputIsAValidPrefixOrAnObject() {
        Outcome<OutputConstraint> compiled = new OutputConstraints(1).jsonObject("x", OutputConstraints.ANY_WHITESPACE);
        for (int seed = 0; seed < 3; seed++) {
            Map<String, Object> choice = choice(api.post("/v1/chat/completions", request("seed", seed,
                    "max_tokens", 100, "response_format", Map.of("type", "json_object"))));
            assertTrue(content(choice).startsWith("{"), content(choice));
            assertValidPrefix(compiled, choice);
        }
        Map<String, Object> compact = choice(api.post("/v1/chat/completions", request("temperature", 0,
                "max_tokens", 60, "structured_outputs", Map.of("json_object", true, "disable_any_whitespace", true))));
        assertValidPrefix(new OutputConstraints(1).jsonObject("x", ""), compact);
    }

    @Test
    void choiceOutputIsExactlyOneChoice() {
        List<String> choices = List.of("yes", "no", "maybe later", "ça dépend");
        for (int seed = 0; seed < SEEDS; seed++) {
            Map<String, Object> choice = choice(api.post("/v1/chat/completions", request("seed", seed,
                    "max_tokens", 20, "structured_outputs", Map.of("choice", choices))));
            assertTrue(choices.contains(content(choice)), content(choice));
            assertEquals("stop", choice.get("finish_reason"));
        }
    }

    @Test
    void regexOutputMatchesInFullOnEverySeedAndForEveryChoice() {
        String regex = "\\d{3}-[a-z]{2,4}( ok| ko)?";
        for (int seed = 0; seed < SEEDS; seed++) {
            Api.Reply reply = api.post("/v1/chat/completions", request("seed", seed, "n", 2, "max_tokens", 20,
                    "structured_outputs", Map.of("regex", regex)));
            assertEquals(200, reply.status(), reply.toString());
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> choices = (List<Map<String, Object>>) reply.json().get("choices");
            for (Map<String, Object> choice : choices) {
                assertTrue(Pattern.compile(regex).matcher(content(choice)).matches(), content(choice));
                assertEquals("stop", choice.get("finish_reason"));
            }
        }
    }

    @Test
    void streamedDeltasAddUpToAMatchingOutput() {
        String regex = "(red|green|blue)-[0-9]{2,3}";
        Api.Events response = api.stream("/v1/chat/completions", request("seed", 4, "max_tokens", 20, "stream", true,
                "structured_outputs", Map.of("regex", regex)));
        assertEquals(200, response.status());
        StringBuilder text = new StringBuilder();
        String finish = null;
        for (String line : response.data().stream().filter(l -> l.startsWith("data: {")).toList()) {
            @SuppressWarnings("unchecked")
            Map<String, Object> chunk = (Map<String, Object>) parse(line.substring("data: ".length()));
            @SuppressWarnings("unchecked")
            Map<String, Object> c = ((List<Map<String, Object>>) chunk.get("choices")).getFirst();
            @SuppressWarnings("unchecked")
            Object piece = ((Map<String, Object>) c.get("delta")).get("content");
            text.append(piece == null ? "" : piece);
            finish = c.get("finish_reason") == null ? finish : (String) c.get("finish_reason");
        }
        assertTrue(Pattern.compile(regex).matcher(text).matches(), text.toString());
        assertEquals("stop", finish);
    }

    @Test
    void greedyDecodingAndLogprobsWorkUnderAConstraint() {
        Map<String, Object> choice = choice(api.post("/v1/chat/completions", request("temperature", 0,
                "max_tokens", 10, "logprobs", true, "top_logprobs", 2,
                "structured_outputs", Map.of("choice", List.of("alpha", "beta")))));
        assertTrue(List.of("alpha", "beta").contains(content(choice)), content(choice));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> tokens = (List<Map<String, Object>>) ((Map<String, Object>) choice.get("logprobs"))
                .get("content");
        for (Map<String, Object> token : tokens) {
            assertTrue(((Number) token.get("logprob")).doubleValue() >= -9999.0, token.toString());
        }
    }

    @Test
    void maxTokensCutsAConstrainedOutputWithLength() {
        Map<String, Object> choice = choice(api.post("/v1/chat/completions", request("seed", 1, "max_tokens", 3,
                "structured_outputs", Map.of("regex", "[a-z]{40}"))));
        assertEquals("length", choice.get("finish_reason"));
    }

    @Test
    void invalidAndUnsupportedConstraintsAreRefusedNamingTheField() {
        assertRefused(request("structured_outputs", Map.of("regex", "[.*")), "structured_outputs",
                "unterminated character set");
        assertRefused(request("structured_outputs", Map.of("json", Map.of("type", "bogus"))), "structured_outputs",
                "unknown JSON schema type");
        assertRefused(request("structured_outputs", Map.of("json", "{not json")), "structured_outputs",
                "Invalid JSON grammar specification.");
        assertRefused(request("structured_outputs", Map.of("grammar", "root ::= \"a\" item")), "structured_outputs",
                "rule 'item' is not defined");
        assertRefused(request("structured_outputs", Map.of("choice", List.of())), "structured_outputs",
                "Choice '[]' cannot be an empty list");
        assertRefused(request("response_format", Map.of("type", "json_schema", "json_schema", Map.of("name", "x",
                "schema", Map.of("type", "object", "patternProperties", Map.of())))), "response_format",
                "'patternProperties' is not supported");
        assertRefused(request("response_format", Map.of("type", "json_object"), "structured_outputs",
                Map.of("regex", "a")), "response_format", "only use one kind of structured outputs constraint");
    }

    private void assertRefused(Map<String, Object> body, String param, String message) {
        Api.Reply reply = api.post("/v1/chat/completions", body);
        reply.assertRefused(400, param, message);
    }
}
