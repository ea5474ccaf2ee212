package dev.crucible.runtime.structured;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Refusal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonSchemaCompilerTest {

    private final OutputConstraints compiler = new OutputConstraints(4);

    private ByteDfa schema(Map<String, Object> schema) {
        return value(compiler.jsonSchema("structured_outputs", schema, OutputConstraints.ANY_WHITESPACE, false)).dfa();
    }

    private static void accepts(ByteDfa dfa, String... texts) {
        for (String text : texts) {
            assertTrue(dfa.matches(text.getBytes(StandardCharsets.UTF_8)), "should accept " + text);
        }
    }

    private static void rejects(ByteDfa dfa, String... texts) {
        for (String text : texts) {
            assertFalse(dfa.matches(text.getBytes(StandardCharsets.UTF_8)), "should reject " + text);
        }
    }

    @Test
    void objectsNeedTheirRequiredPropertiesInOrderAndTakeNoOthers() {
        ByteDfa dfa = schema(Map.of("type", "object", "properties", new java.util.LinkedHashMap<>(Map.of(
                "name", Map.of("type", "string"))) {
            {
                put("age", Map.of("type", "integer"));
                put("nick", Map.of("type", "string"));
            }
        }, "required", List.of("name", "age")));
        accepts(dfa, "{\"name\":\"Ann\",\"age\":3}", "{ \"name\" : \"A\\\"n\\u00e9\" ,\n\t\"age\": -12, \"nick\":\"x\"}",
                "{\"name\":\"é😀\",\"age\":0}");
        rejects(dfa, "{\"name\":\"Ann\"}", "{\"age\":3,\"name\":\"Ann\"}", "{\"name\":\"Ann\",\"age\":03}",
                "{\"name\":\"Ann\",\"age\":3,\"other\":1}", "{\"name\":\"Ann\",\"age\":3,}", "{\"name\":\"a\nb\",\"age\":1}");
    }

    @Test
    void optionalPropertiesMayEachBeLeftOut() {
        java.util.LinkedHashMap<String, Object> props = new java.util.LinkedHashMap<>();
        props.put("a", Map.of("type", "boolean"));
        props.put("b", Map.of("type", "null"));
        props.put("c", Map.of("type", "number"));
        ByteDfa dfa = schema(Map.of("properties", props));
        accepts(dfa, "{}", "{\"a\":true}", "{\"b\":null}", "{\"c\":1.5e3}", "{\"a\":false,\"c\":-0.25}",
                "{\"a\":true,\"b\":null,\"c\":2}");
        rejects(dfa, "{,}", "{\"a\":true,}", "{\"c\":1,\"a\":true}", "{\"c\":.5}");
    }

    @Test
    void additionalPropertiesTrueOrASchemaAllowsOtherKeysAfterTheKnownOnes() {
        ByteDfa dfa = schema(Map.of("properties", Map.of("a", Map.of("type", "integer")), "required", List.of("a"),
                "additionalProperties", Map.of("type", "string")));
        accepts(dfa, "{\"a\":1}", "{\"a\":1,\"x\":\"y\",\"z\":\"w\"}");
        rejects(dfa, "{\"a\":1,\"x\":2}");
        ByteDfa none = value(compiler.jsonSchema("p", Map.of("properties", Map.of("a", Map.of("type", "integer")),
                "additionalProperties", true), "", true)).dfa();
        rejects(none, "{\"a\":1,\"x\":2}");
        accepts(none, "{\"a\":1}");
    }

    @Test
    void arraysHonourItemsAndBounds() {
        ByteDfa dfa = schema(Map.of("type", "array", "items", Map.of("type", "integer"), "minItems", 1,
                "maxItems", 3));
        accepts(dfa, "[1]", "[1, 2,3]", "[ 7 ]");
        rejects(dfa, "[]", "[1,2,3,4]", "[1,]", "[\"a\"]");
    }

    @Test
    void enumConstAnyOfAndTypeLists() {
        accepts(schema(Map.of("enum", List.of("red", 1, true))), "\"red\"", "1", "true");
        rejects(schema(Map.of("enum", List.of("red", 1, true))), "\"blue\"", "false");
        accepts(schema(Map.of("const", Map.of("k", List.of(1, 2)))), "{\"k\":[1,2]}");
        ByteDfa any = schema(Map.of("anyOf", List.of(Map.of("type", "string"), Map.of("type", "null"))));
        accepts(any, "\"x\"", "null");
        rejects(any, "1");
        accepts(schema(Map.of("type", List.of("integer", "boolean"))), "5", "false");
    }

    @Test
    void stringLengthsPatternsAndFormats() {
        ByteDfa bounded = schema(Map.of("type", "string", "minLength", 2, "maxLength", 3));
        accepts(bounded, "\"ab\"", "\"éé€\"", "\"a\\n\"");
        rejects(bounded, "\"a\"", "\"abcd\"");
        ByteDfa pattern = schema(Map.of("type", "string", "pattern", "^[A-Z]{2}\\d$"));
        accepts(pattern, "\"AB1\"");
        rejects(pattern, "\"ab1\"", "\"AB12\"");
        ByteDfa uuid = schema(Map.of("type", "string", "format", "uuid"));
        accepts(uuid, "\"123e4567-e89b-12d3-a456-426614174000\"");
        rejects(uuid, "\"nope\"");
    }

    @Test
    void integerBoundsAreExact() {
        ByteDfa dfa = schema(Map.of("type", "integer", "minimum", -12, "exclusiveMaximum", 105));
        accepts(dfa, "-12", "-1", "0", "7", "99", "104");
        rejects(dfa, "-13", "105", "1000", "-0", "007");
        ByteDfa open = schema(Map.of("type", "integer", "minimum", 18));
        accepts(open, "18", "99", "100", "123456789012");
        rejects(open, "17", "9", "-20");
    }

    @Test
    void localRefsResolve() {
        ByteDfa dfa = schema(Map.of("$defs", Map.of("p", Map.of("type", "object", "properties",
                Map.of("x", Map.of("type", "integer")), "required", List.of("x"))), "type", "array",
                "items", Map.of("$ref", "#/$defs/p")));
        accepts(dfa, "[{\"x\":1},{\"x\":2}]");
        rejects(dfa, "[{\"y\":1}]");
    }

    @Test
    void anyObjectAndUntypedSchemasTakeNestedJson() {
        ByteDfa object = value(compiler.jsonObject("response_format", OutputConstraints.ANY_WHITESPACE)).dfa();
        accepts(object, "{}", "{\"a\": [1, {\"b\": null}, \"c\"], \"d\": {\"e\": [true, false, -1.5e-3]}}");
        rejects(object, "[]", "\"x\"", "{\"a\":}", "{\"a\":1", "{'a':1}");
        accepts(schema(Map.of()), "[1,2]", "\"x\"", "{\"a\":{}}");
    }

    @Test
    void compactWhitespaceAllowsNone() {
        ByteDfa dfa = value(compiler.jsonSchema("p", Map.of("type", "array"), "", false)).dfa();
        accepts(dfa, "[1,2]");
        rejects(dfa, "[1, 2]");
    }

    @Test
    void aWhitespacePatternBoundsTheWhitespaceBetweenTokens() {
        ByteDfa dfa = value(compiler.jsonSchema("p", Map.of("type", "array"), "[ ]?", false)).dfa();
        accepts(dfa, "[1, 2]", "[ 1 ,2 ]");
        rejects(dfa, "[1,  2]", "[1,\n2]");
        assertTrue(assertRefused(compiler.jsonSchema("structured_outputs", Map.of(), "[", false),
                Refusal.Reason.INVALID, "structured_outputs").contains("unterminated character set"));
    }

    @Test
    void unsupportedKeywordsAndInvalidSchemasAreRefusedNamingTheField() {
        String message = assertRefused(compiler.jsonSchema("response_format", Map.of("type", "object",
                "patternProperties", Map.of()), "", false), Refusal.Reason.INVALID, "response_format");
        assertTrue(message.contains("'patternProperties' is not supported"), message);
        assertTrue(assertRefused(compiler.jsonSchema("p", Map.of("type", "bogus"), "", false),
                Refusal.Reason.INVALID, "p").contains("unknown JSON schema type 'bogus'"));
        assertTrue(assertRefused(compiler.jsonSchema("p", Map.of("$ref", "#/$defs/missing"), "", false),
                Refusal.Reason.INVALID, "p").contains("does not resolve"));
        assertTrue(assertRefused(compiler.jsonSchema("p", Map.of("$defs", Map.of("n", Map.of("type", "array",
                "items", Map.of("$ref", "#/$defs/n"))), "$ref", "#/$defs/n"), "", false), Refusal.Reason.INVALID,
                "p").contains("recursive"));
        assertTrue(assertRefused(compiler.regex("structured_outputs", "[.*"), Refusal.Reason.INVALID,
                "structured_outputs").contains("unterminated character set"));
    }
}
