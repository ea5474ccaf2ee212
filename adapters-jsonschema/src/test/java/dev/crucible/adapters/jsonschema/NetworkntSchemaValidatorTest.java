package dev.crucible.adapters.jsonschema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.feedback.JsonSchemaValidator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Verdicts follow the JSON Schema 2020-12 specification (as Python's {@code jsonschema.validate} applies it), over
 * the keywords annotation specs may use.
 */
class NetworkntSchemaValidatorTest {

    private static final JsonSchemaValidator VALIDATOR = new NetworkntSchemaValidator();
    /** The JDK's engine stands in for the application's linear-time one: these patterns mean the same in both. */
    private static final JsonSchemaValidator.PatternSearch SEARCH = (pattern, text) ->
            Pattern.compile(pattern).matcher(text).find();

    private static boolean valid(Object value, Map<String, Object> schema) {
        return VALIDATOR.matches(value, schema, SEARCH, 5_000_000);
    }

    @Test
    void checksTypesWithIntegerAsWholeNumberAndBooleanApartFromNumbers() {
        Map<String, Object> integer = Map.of("type", "integer");
        assertTrue(valid(3L, integer));
        assertTrue(valid(3.0, integer));
        assertFalse(valid(3.5, integer));
        assertFalse(valid(true, integer));
        assertTrue(valid(null, Map.of("type", List.of("string", "null"))));
        assertFalse(valid("x", Map.of("type", "number")));
        assertTrue(valid(List.of(), Map.of("type", "array")));
        assertTrue(valid(Map.of(), Map.of("type", "object")));
        assertFalse(valid(1L, Map.of("type", "boolean")));
    }

    @Test
    void checksEnumAndConstByJsonEquality() {
        Map<String, Object> enumSchema = Map.of("enum", List.of("good", 1L, false));
        assertTrue(valid("good", enumSchema));
        assertTrue(valid(1.0, enumSchema));
        assertFalse(valid(0L, enumSchema));
        assertFalse(valid("bad", enumSchema));
        assertTrue(valid(Map.of("a", List.of(1L)), Map.of("const", Map.of("a", List.of(1.0)))));
    }

    @Test
    void checksNumericBounds() {
        Map<String, Object> schema = Map.of("minimum", 1, "maximum", 5, "exclusiveMaximum", 5.0, "multipleOf", 0.5);
        assertTrue(valid(1L, schema));
        assertTrue(valid(4.5, schema));
        assertFalse(valid(5L, schema));
        assertFalse(valid(0.5, schema));
        assertFalse(valid(1.25, schema));
        assertTrue(valid("not a number", schema));
    }

    @Test
    void checksStringLengthInCodePointsAndPatternAsSearch() {
        Map<String, Object> schema = Map.of("type", "string", "minLength", 2, "maxLength", 3, "pattern", "b+");
        assertTrue(valid("abc", schema));
        assertFalse(valid("a", schema));
        assertFalse(valid("acd", schema));
        assertTrue(valid("😀b", schema));
        assertFalse(valid("abbb", schema));
    }

    @Test
    void checksObjectsPropertiesRequiredAndAdditional() {
        Map<String, Object> schema = Map.of("type", "object", "required", List.of("score"),
                "properties", Map.of("score", Map.of("type", "number")), "additionalProperties", false);
        assertTrue(valid(Map.of("score", 1L), schema));
        assertFalse(valid(Map.of(), schema));
        assertFalse(valid(Map.of("score", "x"), schema));
        assertFalse(valid(Map.of("score", 1L, "extra", 1L), schema));
        assertFalse(valid(Map.of("a", 1L, "b", 2L), Map.of("maxProperties", 1)));
    }

    @Test
    void checksArraysItemsSizeAndUniqueness() {
        Map<String, Object> schema = Map.of("items", Map.of("type", "string"), "minItems", 1, "maxItems", 2,
                "uniqueItems", true);
        assertTrue(valid(List.of("a", "b"), schema));
        assertFalse(valid(List.of(), schema));
        assertFalse(valid(List.of("a", "b", "c"), schema));
        assertFalse(valid(List.of("a", "a"), schema));
        assertFalse(valid(List.of(1L), schema));
        assertFalse(valid(Arrays.asList(1L, 1.0), Map.of("uniqueItems", true)));
    }

    @Test
    void checksCombinators() {
        Map<String, Object> schema = Map.of("anyOf", List.of(Map.of("type", "string"), Map.of("type", "integer")),
                "not", Map.of("const", "no"), "oneOf", List.of(Map.of("maxLength", 1), Map.of("minLength", 1)));
        assertTrue(valid("ab", schema));
        assertFalse(valid("a", schema));
        assertFalse(valid("no", schema));
        assertFalse(valid(1.5, schema));
        assertTrue(valid(2L, Map.of("allOf", List.of(Map.of("minimum", 1), Map.of("maximum", 3)))));
        assertFalse(valid(2L, Map.of("allOf", List.of(Map.of("minimum", 1), Map.of("maximum", 1)))));
    }

    @Test
    void ignoresAnnotationKeywords() {
        assertTrue(valid("x", Map.of("type", "string", "title", "Why", "description", "d", "format", "email")));
    }

    @Test
    void patternsRunThroughTheChecksOwnSearchOncePerText() {
        List<String> searched = new ArrayList<>();
        JsonSchemaValidator.PatternSearch counting = (pattern, text) -> {
            searched.add(pattern + " in " + text);
            return text.contains("b");
        };
        assertTrue(VALIDATOR.matches(List.of("ab", 1L), Map.of("items", Map.of("pattern", "b")), counting, 1_000));
        assertEquals(List.of("b in ab"), searched);
        JsonSchemaValidator.TooMuchWork stop = new JsonSchemaValidator.TooMuchWork(7);
        assertThrows(JsonSchemaValidator.TooMuchWork.class, () -> VALIDATOR.matches("x", Map.of("pattern", "x"),
                (pattern, text) -> {
                    throw stop;
                }, 1_000));
    }

    @Test
    void stopsPastTheStepBound() {
        List<Long> many = IntStream.range(0, 2_000).mapToObj(i -> (long) i).toList();
        Map<String, Object> schema = Map.of("items", Map.of("type", "integer", "minimum", 0), "uniqueItems", true);
        assertTrue(VALIDATOR.matches(many, schema, SEARCH, 100_000));
        JsonSchemaValidator.TooMuchWork stopped = assertThrows(JsonSchemaValidator.TooMuchWork.class,
                () -> VALIDATOR.matches(many, schema, SEARCH, 1_000));
        assertTrue(stopped.getMessage().contains("1000"), stopped.getMessage());
    }
}
