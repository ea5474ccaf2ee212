package dev.crucible.server.api;

import static dev.crucible.testsupport.constraint.HostileSchemas.nestedArrays;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Structured-output constraints a hostile tenant sends: schemas and regexes whose counts multiply, grammars that
 * unroll or parse ambiguously, and invalid patterns of hundreds of kilobytes. Each is answered quickly with a 400
 * that names the field and the setting that bounds it, and quotes at most a short excerpt of the input. The parse
 * budget is set low here so the ambiguous grammar reaches it within a few dozen tokens.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostileConstraintsIT {

    /**
     * Wall-clock, so generous for a 2-core machine under other load (the runtime's property test bounds CPU time at
     * 2 s); the unbounded compiles took 20 s and more, some would never end.
     */
    private static final long ANSWER_MILLIS = 10_000;
    @AutoClose
    private final TestServer server = TestServer.start(Map.of("crucible.structured-outputs.max-parse-work", 20_000));
    private final Api api = server.api(server.newKey("mallory"));

    private static Map<String, Object> request(Object... pairs) {
        return RequestBodies.chat("Answer", pairs);
    }

    private Api.Reply timedPost(Map<String, Object> body) {
        long start = System.nanoTime();
        Api.Reply reply = api.post("/v1/chat/completions", body);
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis < ANSWER_MILLIS, "answered in " + millis + " ms: " + reply);
        return reply;
    }

    private static void assertRefused(Api.Reply reply, String param, String setting) {
        reply.assertRefused(400, param, setting);
        String message = (String) reply.error().get("message");
        assertTrue(message.length() < 600, "a short message: " + message.length() + " characters");
    }

    @Test
    void aSchemaOfArraysNested15DeepIsRefusedQuicklyNamingResponseFormatAndTheStateBound() {
        Map<String, Object> format = Map.of("type", "json_schema", "json_schema",
                Map.of("name", "deep", "schema", nestedArrays(15)));
        assertRefused(timedPost(request("max_tokens", 4, "response_format", format)), "response_format",
                "crucible.structured-outputs.max-automaton-size");
    }

    @Test
    void aSchemaNested26DeepInStructuredOutputsIsRefusedNamingStructuredOutputs() {
        assertRefused(timedPost(request("max_tokens", 4, "structured_outputs", Map.of("json", nestedArrays(26)))),
                "structured_outputs", "crucible.structured-outputs.max-automaton-size");
    }

    @Test
    void aSchemaWhoseMaxItemsMultiplyIsRefused() {
        Object schema = Map.of("type", "integer");
        for (int i = 0; i < 3; i++) {
            schema = Map.of("type", "array", "items", schema, "maxItems", 1000);
        }
        assertRefused(timedPost(request("max_tokens", 4, "structured_outputs", Map.of("json", schema))),
                "structured_outputs", "crucible.structured-outputs.max-automaton-size");
    }

    @Test
    void aSchemaNestedEightDeepStillCompilesAndConstrains() {
        Api.Reply reply = timedPost(request("max_tokens", 4, "structured_outputs", Map.of("json", nestedArrays(8))));
        assertEquals(200, reply.status(), reply.toString());
    }

    @Test
    void nestedRegexCountsAreRefusedBeforeTheAutomatonIsBuilt() {
        for (String regex : List.of("(a{1000}){200}", "(.{1000}){1000}", "((ab){100}){1000}c")) {
            assertRefused(timedPost(request("max_tokens", 4, "structured_outputs", Map.of("regex", regex))),
                    "structured_outputs", "crucible.structured-outputs.max-automaton-size");
        }
        Api.Reply fits = timedPost(request("max_tokens", 4, "structured_outputs", Map.of("regex", "(ab){1,1000}")));
        assertEquals(200, fits.status(), fits.toString());
    }

    @Test
    void aGrammarThatUnrollsPastTheSymbolBoundIsRefused() {
        String grammar = "root ::= (" + "x ".repeat(200) + "){0,1000}\nx ::= \"a\"";
        assertRefused(timedPost(request("max_tokens", 4, "structured_outputs", Map.of("grammar", grammar))),
                "structured_outputs", "crucible.structured-outputs.max-grammar-symbols");
    }

    @Test
    void anAmbiguousGrammarEndsWithARefusalAtItsParseBudgetInsteadOfParsingOn() {
        Api.Reply reply = timedPost(request("max_tokens", 400, "ignore_eos", true, "structured_outputs",
                Map.of("grammar", "root ::= x\nx ::= x x | \"a\"")));
        assertRefused(reply, "structured_outputs", "crucible.structured-outputs.max-parse-work");
        Api.Reply next = timedPost(request("max_tokens", 4, "structured_outputs",
                Map.of("grammar", "root ::= \"yes\" | \"no\"")));
        assertEquals(200, next.status(), "the model serves on: " + next);
    }

    @Test
    void aStreamedAmbiguousGrammarEndsWithAnErrorEventThatSaysWhy() {
        Api.Events events = api.stream("/v1/chat/completions", request("max_tokens", 400, "ignore_eos", true,
                "stream", true, "structured_outputs", Map.of("grammar", "root ::= x\nx ::= x x | \"a\"")));
        assertEquals(200, events.status());
        String error = events.data().stream().filter(line -> line.contains("\"error\"")).findFirst()
                .orElseThrow(() -> new AssertionError("no error event: " + events.body()));
        assertTrue(error.contains("\"code\":400") && error.contains("crucible.structured-outputs.max-parse-work")
                && error.contains("\"param\":\"structured_outputs\""), error);
    }

    @Test
    void aHugeInvalidRegexIsQuotedAsAShortEscapedExcerpt() {
        String regex = "[" + "a\n".repeat(100_000);
        Api.Reply reply = timedPost(request("max_tokens", 4, "structured_outputs", Map.of("regex", regex)));
        assertEquals(400, reply.status(), reply.toString().substring(0, 300));
        String message = (String) reply.error().get("message");
        assertTrue(message.length() < 600, "message of " + message.length() + " characters");
        assertFalse(message.contains("\n"), message);
        assertTrue(message.contains("'[a\\na\\n"), "quotes an escaped excerpt: " + message);
    }

    @Test
    void hugeInvalidSchemasAndGrammarsAreQuotedShortToo() {
        String name = "r".repeat(200_000);
        List<Map<String, Object>> bodies = List.of(
                request("structured_outputs", Map.of("grammar", "root ::= " + name + "\n")),
                request("structured_outputs", Map.of("grammar", "root ::= \"a\"\n" + name + " ::= \"b\"\n" + name
                        + " ::= \"c\"")),
                request("structured_outputs", Map.of("json", Map.of("type", name))),
                request("structured_outputs", Map.of("json", Map.of("$ref", "#/" + name))),
                request("structured_outputs", Map.of("json", Map.of("type", "string", "pattern", name + "("))));
        for (Map<String, Object> body : bodies) {
            Api.Reply reply = timedPost(body);
            assertEquals(400, reply.status());
            String message = (String) reply.error().get("message");
            assertTrue(message.length() < 600, "message of " + message.length() + " characters: "
                    + message.substring(0, Math.min(200, message.length())));
        }
    }

    /**
     * A few hostile constraints drawn at random (deep nesting, multiplied counts, ambiguity, unbalanced input), as
     * the runtime's property test draws many: each is answered in time with a 200 or a 400, never a 5xx.
     */
    @Test
    void generatedHostileConstraintsAreAnsweredInTimeWithA200OrA400() {
        Random random = new Random(22);
        List<Map<String, Object>> outputs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            outputs.add(Map.of("regex", hostileRegex(random, 4)));
            outputs.add(Map.of("json", hostileSchema(random, 10)));
            outputs.add(Map.of("grammar", "root ::= x\nx ::= " + hostileGrammarBody(random, 3)));
        }
        for (Map<String, Object> output : outputs) {
            Api.Reply reply = timedPost(request("max_tokens", 8, "structured_outputs", output));
            assertTrue(reply.status() == 200 || reply.status() == 400, output + " answered " + reply);
        }
    }

    private static String hostileRegex(Random random, int depth) {
        if (depth == 0) {
            return List.of("a", ".", "[a-z]", "\\d", "(", "a|b").get(random.nextInt(6));
        }
        String inner = hostileRegex(random, depth - 1);
        return switch (random.nextInt(4)) {
            case 0 -> "(" + inner + "){" + random.nextInt(1001) + "}";
            case 1 -> "(" + inner + "|" + hostileRegex(random, depth - 1) + ")*";
            case 2 -> inner + inner;
            default -> "(" + inner + "){1," + (1 + random.nextInt(1000)) + "}";
        };
    }

    private static Object hostileSchema(Random random, int depth) {
        if (depth == 0) {
            return Map.of("type", List.of("string", "integer", "boolean").get(random.nextInt(3)));
        }
        return switch (random.nextInt(3)) {
            case 0 -> Map.of("type", "array", "items", hostileSchema(random, depth - 1), "maxItems",
                    random.nextInt(1001));
            case 1 -> Map.of("anyOf", List.of(hostileSchema(random, depth - 1), hostileSchema(random, depth - 1)));
            default -> Map.of("type", "object", "properties", Map.of("a", hostileSchema(random, depth - 1),
                    "b", hostileSchema(random, depth - 1)));
        };
    }

    private static String hostileGrammarBody(Random random, int depth) {
        if (depth == 0) {
            return List.of("\"a\"", "x", "x x", "[a-z]").get(random.nextInt(4));
        }
        String inner = hostileGrammarBody(random, depth - 1);
        return switch (random.nextInt(3)) {
            case 0 -> "(" + inner + "){0," + random.nextInt(1001) + "}";
            case 1 -> inner + " | " + hostileGrammarBody(random, depth - 1);
            default -> "x x | " + inner;
        };
    }
}
