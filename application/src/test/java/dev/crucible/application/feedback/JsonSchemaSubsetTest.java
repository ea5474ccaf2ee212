package dev.crucible.application.feedback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Verdicts follow the JSON Schema 2020-12 specification (as Python's {@code jsonschema.validate} applies it). */
class JsonSchemaSubsetTest {

    private static boolean valid(Object value, Map<String, Object> schema) {
        assertEquals(Optional.empty(), JsonSchemaSubset.unsupportedKeyword(schema));
        assertEquals(Optional.empty(), SpecSchema.check(schema, "field_schema", SpecLimits.DEFAULTS));
        return new JsonSchemaSubset(SpecLimits.DEFAULTS).matches(value, schema);
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
    void reportsKeywordsOutsideTheSubsetAtAnyDepth() {
        assertEquals(Optional.of("$ref"), JsonSchemaSubset.unsupportedKeyword(Map.of("$ref", "#/x")));
        assertEquals(Optional.of("patternProperties"), JsonSchemaSubset.unsupportedKeyword(
                Map.of("properties", Map.of("a", Map.of("patternProperties", Map.of())))));
        assertEquals(Optional.of("minimum"), JsonSchemaSubset.unsupportedKeyword(Map.of("minimum", "1")));
        assertEquals(Optional.of("pattern"), JsonSchemaSubset.unsupportedKeyword(Map.of("pattern", 3)));
        assertEquals("field_schema.pattern", SpecSchema.check(Map.of("pattern", "("), "field_schema",
                SpecLimits.DEFAULTS).orElseThrow().param());
    }
}
