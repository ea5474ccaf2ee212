package dev.crucible.application.feedback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Refusal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SpecSchemaTest {

    private static final SpecLimits SMALL = new SpecLimits(100, 50, 5, 10_000);

    private static Optional<Refusal> check(Object schema, SpecLimits limits) {
        return SpecSchema.check(schema, "val.field_schema", limits);
    }

    @Test
    void aPatternARegexCannotRunIsRefusedNamingItsPath() {
        Map<String, Object> schema = Map.of("type", "object", "properties",
                Map.of("name", Map.of("type", "string", "pattern", "(a)\\1")));
        Refusal refusal = check(schema, SpecLimits.DEFAULTS).orElseThrow();
        assertEquals("val.field_schema.properties.name.pattern", refusal.param());
        assertTrue(refusal.message().contains("backreference"), refusal.message());
        assertEquals("val.field_schema.anyOf[1].items.pattern", check(Map.of("anyOf", List.of(true,
                Map.of("items", Map.of("pattern", "(?=x)")))), SpecLimits.DEFAULTS).orElseThrow().param());
    }

    @Test
    void aPropertyNameInThePathIsQuotedAsAnExcerptUnlessPlain() {
        String name = "line\nforged " + "x".repeat(500);
        Refusal refusal = check(Map.of("properties", Map.of(name, Map.of("pattern", "\\1"))), SpecLimits.DEFAULTS)
                .orElseThrow();
        assertFalse(refusal.param().contains("\n"), refusal.param());
        assertTrue(refusal.param().length() < 200, refusal.param());
    }

    @Test
    void patternsAreLookedForOnlyWhereTheSchemaHasSchemas() {
        // a property named "pattern" and a const that holds one are data, not keywords
        assertEquals(Optional.empty(), check(Map.of("properties", Map.of("pattern", Map.of("type", "string")),
                "const", Map.of("pattern", "(?=x)")), SpecLimits.DEFAULTS));
    }

    @Test
    void aPatternPastTheSizeBoundIsRefusedNamingTheSetting() {
        Refusal refusal = check(Map.of("pattern", "a{101}"), SMALL).orElseThrow();
        assertEquals("val.field_schema.pattern", refusal.param());
        assertTrue(refusal.message().contains(SpecLimits.MAX_PATTERN_SIZE_SETTING), refusal.message());
    }

    @Test
    void deepOrLargeSchemasAreRefusedNamingTheSetting() {
        Object deep = Map.of("type", "array");
        for (int i = 0; i < 6; i++) {
            deep = Map.of("items", deep);
        }
        Refusal tooDeep = check(deep, SMALL).orElseThrow();
        assertEquals("val.field_schema", tooDeep.param());
        assertTrue(tooDeep.message().contains(SpecLimits.MAX_SCHEMA_DEPTH_SETTING), tooDeep.message());
        Refusal tooLarge = check(Map.of("enum", java.util.Collections.nCopies(60, 1)), SMALL).orElseThrow();
        assertTrue(tooLarge.message().contains(SpecLimits.MAX_SCHEMA_NODES_SETTING), tooLarge.message());
    }

    @Test
    void searchingPatternsStopsPastTheWorkBoundCountedOverTheWholeCheck() {
        assertFalse(new PatternBudget(SMALL).find("^a*a*a*a*b", "a".repeat(240)));
        JsonSchemaValidator.TooMuchWork stopped = assertThrows(JsonSchemaValidator.TooMuchWork.class,
                () -> new PatternBudget(SMALL).find("^a*a*a*a*b", "a".repeat(5_000)));
        assertTrue(stopped.getMessage().contains("10000"), stopped.getMessage());
        PatternBudget oneCheck = new PatternBudget(SMALL);
        assertThrows(JsonSchemaValidator.TooMuchWork.class, () -> {
            for (int i = 0; i < 100; i++) {
                oneCheck.find("^a*a*a*a*b", "a".repeat(240));
            }
        });
    }
}
