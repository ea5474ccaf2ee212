package dev.crucible.application.inference.chat;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.inference.chat.ask.ChatOutput;
import dev.crucible.application.inference.chat.ask.ChatRequest;
import dev.crucible.application.inference.chat.ask.ChatTools;
import dev.crucible.application.inference.chat.ask.ResponseFormat;
import dev.crucible.application.inference.chat.ask.StructuredOutputs;
import dev.crucible.application.inference.chat.ask.ToolChoice;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.runtime.structured.ByteDfa;
import dev.crucible.runtime.structured.OutputConstraint;
import dev.crucible.runtime.structured.OutputConstraints;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StructuredOutputMapperTest {

    private final OutputConstraints compiler = new OutputConstraints(8);

    private static StructuredOutputs so(Optional<Object> json, Optional<String> regex, Optional<List<String>> choice,
            Optional<String> grammar, Optional<Boolean> jsonObject, boolean compact) {
        return new StructuredOutputs(json, regex, choice, grammar, jsonObject, compact, false, Optional.empty(),
                Optional.empty(), Map.of());
    }

    private static ChatOutput output(Optional<ResponseFormat> format, Optional<StructuredOutputs> so) {
        return new ChatOutput(false, true, true, true, format, so);
    }

    private static ResponseFormat format(ResponseFormat.Type type, Map<String, Object> schema) {
        return new ResponseFormat(type, type == ResponseFormat.Type.JSON_SCHEMA ? Optional.of(
                new ResponseFormat.JsonSchema("x", Optional.empty(), Optional.ofNullable(schema), Optional.empty()))
                : Optional.empty(), Map.of());
    }

    private Outcome<Optional<OutputConstraint>> map(ChatOutput output) {
        return StructuredOutputMapper.map(output, compiler);
    }

    private static boolean matches(Outcome<Optional<OutputConstraint>> outcome, String text) {
        ByteDfa dfa = value(outcome).orElseThrow().dfa();
        return dfa.matches(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void nothingAskedMeansNoConstraintAndTextFormatAddsNone() {
        assertTrue(value(map(ChatOutput.defaults())).isEmpty());
        assertTrue(value(map(output(Optional.of(format(ResponseFormat.Type.TEXT, null)), Optional.empty())))
                .isEmpty());
    }

    @Test
    void responseFormatsMapOntoJsonObjectAndJsonSchema() {
        Outcome<Optional<OutputConstraint>> object = map(output(Optional.of(format(ResponseFormat.Type.JSON_OBJECT,
                null)), Optional.empty()));
        assertTrue(matches(object, "{ \"a\": 1 }"));
        assertFalse(matches(object, "[1]"));
        Outcome<Optional<OutputConstraint>> schema = map(output(Optional.of(format(ResponseFormat.Type.JSON_SCHEMA,
                Map.of("type", "integer"))), Optional.empty()));
        assertTrue(matches(schema, "42"));
    }

    @Test
    void structuredOutputsKindsAndOptions() {
        assertTrue(matches(map(output(Optional.empty(), Optional.of(so(Optional.empty(), Optional.of("a+"),
                Optional.empty(), Optional.empty(), Optional.empty(), false)))), "aaa"));
        assertTrue(matches(map(output(Optional.empty(), Optional.of(so(Optional.empty(), Optional.empty(),
                Optional.of(List.of("x", "y z")), Optional.empty(), Optional.empty(), false)))), "y z"));
        Outcome<Optional<OutputConstraint>> compact = map(output(Optional.empty(), Optional.of(so(
                Optional.of(Map.of("type", "array")), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), true))));
        assertTrue(matches(compact, "[1,2]"));
        assertFalse(matches(compact, "[1, 2]"), "disable_any_whitespace");
    }

    private static final Map<String, Object> WEATHER = Map.of("type", "function", "function", Map.of("name", "weather",
            "parameters", Map.of("type", "object", "properties", Map.of("city", Map.of("$ref", "#/$defs/city")),
                    "required", List.of("city"), "$defs", Map.of("city", Map.of("type", "string")))));
    private static final Map<String, Object> TIME = Map.of("type", "function", "function", Map.of("name", "time"));

    private static ChatRequest withTools(ToolChoice choice, ChatOutput output) {
        ChatRequest plain = ChatRequest.of(List.of(Map.of("role", "user", "content", "Hi")));
        return new ChatRequest(Optional.empty(), plain.messages(), plain.sampling(), plain.stopping(),
                plain.logprobs(), plain.streaming(), plain.templating(),
                new ChatTools(Optional.of(List.of(WEATHER, TIME)), choice, true), output, plain.serving());
    }

    @Test
    void aNamedToolChoiceConstrainsOutputToThatFunctionsArguments() {
        Outcome<Optional<OutputConstraint>> named = StructuredOutputMapper.map(withTools(
                new ToolChoice.Named("weather"), ChatOutput.defaults()), compiler);
        assertTrue(matches(named, "{\"city\": \"Oslo\"}"));
        assertFalse(matches(named, "{}"));
        assertTrue(matches(StructuredOutputMapper.map(withTools(new ToolChoice.Named("time"), ChatOutput.defaults()),
                compiler), "{ }"), "a function without parameters takes an empty object");
        assertFalse(matches(StructuredOutputMapper.map(withTools(new ToolChoice.Named("time"), ChatOutput.defaults()),
                compiler), "{\"x\": 1}"));
        assertTrue(assertRefused(StructuredOutputMapper.map(withTools(new ToolChoice.Named("weather"),
                output(Optional.of(format(ResponseFormat.Type.JSON_OBJECT, null)), Optional.empty())), compiler),
                Refusal.Reason.INVALID, "tool_choice").contains("either use constraints for structured outputs"));
    }

    @Test
    void aRequiredToolChoiceConstrainsOutputToANonEmptyListOfCalls() {
        Outcome<Optional<OutputConstraint>> required = StructuredOutputMapper.map(withTools(new ToolChoice.Required(),
                ChatOutput.defaults()), compiler);
        assertTrue(matches(required, "[{\"name\": \"weather\", \"parameters\": {\"city\": \"Oslo\"}}]"));
        assertTrue(matches(required, "[{\"name\":\"time\",\"parameters\":{}},{\"name\":\"time\",\"parameters\":{}}]"));
        assertFalse(matches(required, "[]"));
        assertFalse(matches(required, "[{\"name\":\"weather\",\"parameters\":{}}]"));
        assertFalse(matches(required, "[{\"name\":\"other\",\"parameters\":{}}]"));
        assertTrue(value(StructuredOutputMapper.map(withTools(new ToolChoice.Auto(), ChatOutput.defaults()), compiler))
                .isEmpty(), "auto forces nothing");
    }

    @Test
    void forcedToolCallsTakeTheServersWhitespace() {
        String spaced = "[ {\"name\": \"time\",\n \"parameters\": {}} ]";
        ChatRequest required = withTools(new ToolChoice.Required(), ChatOutput.defaults());
        assertTrue(matches(StructuredOutputMapper.map(required, compiler), spaced), "vLLM's default: any whitespace");
        assertFalse(matches(StructuredOutputMapper.map(required, compiler, ""), spaced));
        assertTrue(matches(StructuredOutputMapper.map(required, compiler, ""),
                "[{\"name\":\"time\",\"parameters\":{}}]"));
    }

    @Test
    void aRequiredToolChoiceReplacesStructuredOutputsAsVllmsToolParserDoes() {
        Outcome<Optional<OutputConstraint>> required = StructuredOutputMapper.map(withTools(new ToolChoice.Required(),
                output(Optional.of(format(ResponseFormat.Type.JSON_OBJECT, null)), Optional.empty())), compiler);
        assertTrue(matches(required, "[{\"name\": \"time\", \"parameters\": {}}]"));
        assertFalse(matches(required, "{}"), "the json_object response format is dropped");
    }

    @Test
    void refusalsFollowVllm() {
        assertEquals("Choice '[]' cannot be an empty list", assertRefused(map(output(Optional.empty(), Optional.of(
                so(Optional.empty(), Optional.empty(), Optional.of(List.of()), Optional.empty(), Optional.empty(),
                        false)))), Refusal.Reason.INVALID, "structured_outputs"));
        assertTrue(assertRefused(map(output(Optional.empty(), Optional.of(so(Optional.empty(),
                Optional.of("a\0"), Optional.empty(), Optional.empty(), Optional.empty(), false)))),
                Refusal.Reason.INVALID, "structured_outputs").contains("NUL character"));
        assertTrue(assertRefused(map(output(Optional.empty(), Optional.of(so(Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.of(false), false)))), Refusal.Reason.INVALID,
                "structured_outputs").contains("json_object must be True"));
        assertEquals("structured_outputs.grammar cannot be an empty string", assertRefused(map(output(
                Optional.empty(), Optional.of(so(Optional.empty(), Optional.empty(), Optional.empty(), Optional.of(""),
                        Optional.empty(), false)))), Refusal.Reason.INVALID, "structured_outputs"));
        assertTrue(assertRefused(map(output(Optional.empty(), Optional.of(so(Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.of("root ::= \"a\" item"), Optional.empty(), false)))),
                Refusal.Reason.INVALID, "structured_outputs").contains("rule 'item' is not defined"));
        assertTrue(assertRefused(map(output(Optional.of(format(ResponseFormat.Type.JSON_OBJECT, null)),
                Optional.of(so(Optional.empty(), Optional.of("a"), Optional.empty(), Optional.empty(),
                        Optional.empty(), false)))), Refusal.Reason.INVALID, "response_format")
                .contains("only use one kind"));
        assertTrue(assertRefused(map(output(Optional.of(new ResponseFormat(ResponseFormat.Type.STRUCTURAL_TAG,
                Optional.empty(), Map.of("type", "structural_tag"))), Optional.empty())), Refusal.Reason.INVALID,
                "response_format").contains("Invalid response_format structural_tag specification: 'triggers'"));
        assertTrue(assertRefused(map(output(Optional.of(format(ResponseFormat.Type.JSON_SCHEMA, null)),
                Optional.empty())), Refusal.Reason.INVALID, "response_format").contains("none are specified"));
    }

    @Test
    void aGrammarBecomesAGrammarConstraint() {
        OutputConstraint c = value(map(output(Optional.empty(), Optional.of(so(Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.of("root ::= \"yes\" | \"no\""), Optional.empty(), false))))).orElseThrow();
        assertTrue(c.key().startsWith("grammar:"));
        assertTrue(c.language() instanceof dev.crucible.runtime.structured.ByteGrammar);
    }

    @Test
    void aStructuralTagResponseFormatOverridesAndUsesTheFormatObject() {
        Map<String, Object> tag = Map.of("type", "structural_tag", "triggers", List.of("<f>"), "structures",
                List.of(Map.of("begin", "<f>", "schema", Map.of("type", "integer"), "end", "</f>")));
        Outcome<Optional<OutputConstraint>> mapped = map(output(Optional.of(new ResponseFormat(
                ResponseFormat.Type.STRUCTURAL_TAG, Optional.empty(), tag)), Optional.empty()));
        assertTrue(matches(mapped, "hi <f>12</f> bye <f>-3</f>"));
        assertFalse(matches(mapped, "hi <f>x</f>"));
        Outcome<Optional<OutputConstraint>> explicit = map(output(Optional.empty(), Optional.of(
                new StructuredOutputs(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                        Optional.empty(), true, false, Optional.empty(), Optional.of(tag), Map.of()))));
        assertTrue(matches(explicit, "<f>12</f>"));
        assertFalse(matches(explicit, "<f>1.5</f>"));
    }
}
