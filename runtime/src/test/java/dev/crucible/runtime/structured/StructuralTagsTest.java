package dev.crucible.runtime.structured;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.refusal;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Refusal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Structural tags: free text, and wherever a trigger appears, a tagged JSON value matching its schema. */
class StructuralTagsTest {

    private final OutputConstraints compiler = new OutputConstraints(4);
    private final Map<String, Object> weather = Map.of("type", "object", "properties",
            Map.of("city", Map.of("type", "string")), "required", List.of("city"), "additionalProperties", false);
    private final Map<String, Object> spec = Map.of("type", "structural_tag", "triggers", List.of("<function="),
            "structures", List.of(Map.of("begin", "<function=get_weather>", "schema", weather, "end", "</function>"),
                    Map.of("begin", "<function=noop>", "schema", Map.of("type", "integer"), "end", "</function>")));

    private boolean matches(String text) {
        return value(compiler.structuralTag("response_format", spec, "", false)).dfa()
                .matches(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void freeTextWithoutATriggerMatches() {
        assertTrue(matches(""));
        assertTrue(matches("It is sunny <function in spirit, é!"));
    }

    @Test
    void aTriggerMustOpenAStructureWithValidJsonAndItsEndTag() {
        assertTrue(matches("Let me check. <function=get_weather>{\"city\":\"Paris\"}</function> Done."));
        assertTrue(matches("<function=noop>42</function><function=get_weather>{\"city\":\"\"}</function>"));
        assertFalse(matches("<function=get_weather>{\"town\":\"Paris\"}</function>"));
        assertFalse(matches("<function=get_weather>{\"city\":\"Paris\"}"));
        assertFalse(matches("<function=other>{}</function>"));
        assertFalse(matches("text <function=noop>\"x\"</function>"));
    }

    @Test
    void refusesMalformedSpecsNamingTheMember() {
        Refusal noTrigger = refusal(compiler.structuralTag("response_format", Map.of("triggers", List.of("<f"),
                "structures", List.of(Map.of("begin", "<g>", "schema", Map.of(), "end", "</g>"))), "", false));
        assertEquals("response_format", noTrigger.param());
        assertTrue(noTrigger.message().startsWith("Invalid response_format structural_tag specification: "
                + "structures[0].begin '<g>' does not start with any of the triggers"), noTrigger.message());
        Refusal badSchema = refusal(compiler.structuralTag("structured_outputs", Map.of("triggers", List.of("<f"),
                "structures", List.of(Map.of("begin", "<f>", "schema", Map.of("type", "nope"), "end", "</f>"))), "",
                false));
        assertTrue(badSchema.message().startsWith("Invalid structural_tag specification: structures[0].schema:"),
                badSchema.message());
        Refusal noStructures = refusal(compiler.structuralTag("structured_outputs",
                Map.of("triggers", List.of("<f")), "", false));
        assertTrue(noStructures.message().contains("'structures' must be a non-empty list"), noStructures.message());
        Refusal format = refusal(compiler.structuralTag("structured_outputs",
                Map.of("type", "structural_tag", "format", Map.of()), "", false));
        assertTrue(format.message().contains("'format' form"), format.message());
    }
}
