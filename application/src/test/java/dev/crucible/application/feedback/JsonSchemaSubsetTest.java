package dev.crucible.application.feedback;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The keywords annotation specs may use; the verdicts are the validator's (adapters-jsonschema). */
class JsonSchemaSubsetTest {

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

    @Test
    void dropsTheIdentifyingKeywordsInSchemaPlacesOnly() {
        Map<String, Object> schema = Map.of("$schema", "https://example.com/s", "$id", "x", "title", "t",
                "properties", Map.of("$id", Map.of("$id", "y", "type", "string")),
                "anyOf", List.of(Map.of("$schema", "z", "minimum", 1)), "items", Map.of("$id", "i"));
        assertEquals(Map.of("title", "t", "properties", Map.of("$id", Map.of("type", "string")),
                "anyOf", List.of(Map.of("minimum", 1)), "items", Map.of()), JsonSchemaSubset.withoutIdentifiers(schema));
        assertEquals(true, JsonSchemaSubset.withoutIdentifiers(true));
    }
}
