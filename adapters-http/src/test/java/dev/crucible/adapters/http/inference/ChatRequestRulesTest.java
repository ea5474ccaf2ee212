package dev.crucible.adapters.http.inference;

import static dev.crucible.adapters.http.inference.ChatBodies.body;
import static dev.crucible.adapters.http.inference.ChatBodies.map;
import static dev.crucible.adapters.http.inference.ChatBodies.read;
import static dev.crucible.adapters.http.inference.ChatBodies.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.application.inference.chat.ask.ToolChoice;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** One test per protocol rule of {@code vllm-chat.md} §2, with vLLM's exact message and the field as param. */
class ChatRequestRulesTest {

    private static final String USAGE = "Correct usage: `{\"type\": \"function\", \"function\": {\"name\": "
            + "\"my_function\"}}`";
    private static final List<Object> TOOLS = List.of(map("type", "function", "function", map("name", "f")));

    @Test
    void cacheSaltMustBeANonEmptyString() {
        refused(body("cache_salt", ""), "cache_salt", "Parameter 'cache_salt' must be a non-empty string if provided.");
        refused(body("cache_salt", 5), "cache_salt", "Parameter 'cache_salt' must be a non-empty string if provided.");
    }

    @Test
    void cacheSaltIsShortAndHasNoSeparators() {
        refused(body("cache_salt", "a/b"), "cache_salt", "Parameter 'cache_salt' must be at most 128 characters and "
                + "must not contain '@', '/', '\\\\', or NUL.");
        refused(body("cache_salt", "x".repeat(129)), "cache_salt", "Parameter 'cache_salt' must be at most 128 "
                + "characters and must not contain '@', '/', '\\\\', or NUL.");
    }

    @Test
    void streamOptionsNeedStream() {
        refused(body("stream_options", map("include_usage", null)), "stream_options",
                "Stream options can only be defined when `stream=True`.");
    }

    @Test
    void promptLogprobsMustBeAnInteger() {
        refused(body("prompt_logprobs", "x"), "prompt_logprobs", "`prompt_logprobs` must be an integer.");
    }

    @Test
    void promptLogprobsAreNotAvailableWhenStreaming() {
        refused(body("prompt_logprobs", -1, "stream", true), "prompt_logprobs",
                "`prompt_logprobs` are not available when `stream=True`.");
        assertEquals(0, read(body("prompt_logprobs", 0, "stream", true)).logprobs().promptLogprobs().getAsInt());
    }

    @Test
    void promptLogprobsArePositiveOrMinusOne() {
        refused(body("prompt_logprobs", -2), "prompt_logprobs", "`prompt_logprobs` must be a positive value or -1.");
    }

    @Test
    void topLogprobsMustBeAnInteger() {
        refused(body("top_logprobs", "5"), "top_logprobs", "`top_logprobs` must be an integer.");
    }

    @Test
    void topLogprobsArePositiveOrMinusOne() {
        refused(body("top_logprobs", -2, "logprobs", true), "top_logprobs",
                "`top_logprobs` must be a positive value or -1.");
    }

    @Test
    void topLogprobsNeedLogprobs() {
        refused(body("top_logprobs", 2), "top_logprobs", "when using `top_logprobs`, `logprobs` must be set to true.");
        refused(body("top_logprobs", -1, "logprobs", false), "top_logprobs",
                "when using `top_logprobs`, `logprobs` must be set to true.");
    }

    @Test
    void structuredOutputsTakeOneOfJsonRegexChoice() {
        refused(body("structured_outputs", map("regex", "a", "choice", List.of("a"))), "structured_outputs",
                "You can only use one kind of constraints for structured outputs ('json', 'regex' or 'choice').");
    }

    @Test
    void structuredOutputsNeedAConstraint() {
        refused(body("structured_outputs", map()), "structured_outputs", "You must use one kind of structured "
                + "outputs constraint but none are specified: {'json': None, 'regex': None, 'choice': None, "
                + "'grammar': None, 'json_object': None, 'structural_tag': None}");
    }

    @Test
    void structuredOutputsAndNamedToolAreExclusive() {
        refused(body("structured_outputs", map("regex", "a"), "tools", TOOLS, "tool_choice",
                map("type", "function", "function", map("name", "f"))), "structured_outputs",
                "You can only either use constraints for structured outputs or tools, not both.");
    }

    @Test
    void toolChoiceNeedsTools() {
        refused(body("tool_choice", "auto"), "tool_choice", "When using `tool_choice`, `tools` must be set.");
    }

    @Test
    void toolChoiceStringMustBeKnown() {
        refused(body("tools", TOOLS, "tool_choice", "bogus"), "tool_choice",
                "Invalid value for `tool_choice`: bogus! Only named tools, \"none\", \"auto\" or \"required\" are supported.");
    }

    @Test
    void namedToolChoiceNeedsFunction() {
        refused(body("tools", TOOLS, "tool_choice", map("type", "function")), "tool_choice",
                "Invalid value for `function`: `None` in `tool_choice`! " + USAGE);
    }

    @Test
    void namedToolChoiceNeedsName() {
        refused(body("tools", TOOLS, "tool_choice", map("type", "function", "function", map())), "tool_choice",
                "Expected field `name` in `function` in `tool_choice`! " + USAGE);
        refused(body("tools", TOOLS, "tool_choice", map("type", "function", "function", map("name", ""))),
                "tool_choice", "Invalid `name` in `function`: `` in `tool_choice`! " + USAGE);
    }

    @Test
    void namedToolChoiceMustMatchATool() {
        refused(body("tools", TOOLS, "tool_choice", map("type", "function", "function", map("name", "g"))),
                "tool_choice", "The tool specified in `tool_choice` does not match any of the specified `tools`");
    }

    @Test
    void toolsMustNotBeEmpty() {
        refused(body("tools", List.of()), "tools",
                "`tools` must not be an empty array. Either provide at least one tool or omit the field entirely.");
    }

    @Test
    void requiredWithEmptyToolsBehavesAsNone() {
        assertEquals(new ToolChoice.None(), read(body("tools", List.of(), "tool_choice", "required")).tools().toolChoice());
    }

    @Test
    void toolsWithoutChoiceMeanAutoWhichTheUseCaseServesWhenTheModelHasAParser() {
        assertEquals(new ToolChoice.Auto(), read(body("tools", TOOLS)).tools().toolChoice());
        assertEquals(new ToolChoice.Auto(), read(body("tools", TOOLS, "tool_choice", null)).tools().toolChoice());
        assertEquals(new ToolChoice.Auto(), read(body("tools", TOOLS, "tool_choice", "auto")).tools().toolChoice());
    }

    @Test
    void requiredAndNamedToolChoicesAreReadForTheUseCaseToForce() {
        assertEquals(new ToolChoice.Required(), read(body("tools", TOOLS, "tool_choice", "required")).tools()
                .toolChoice());
        assertEquals(new ToolChoice.Named("f"), read(body("tools", TOOLS, "tool_choice", map("type", "function",
                "function", map("name", "f")))).tools().toolChoice());
    }

    @Test
    void generationPromptAndContinueFinalMessageAreExclusive() {
        String both = "Cannot set both `continue_final_message` and `add_generation_prompt` to True.";
        refused(body("continue_final_message", true, "add_generation_prompt", true), "continue_final_message", both);
        assertEquals(true, read(body("continue_final_message", true, "add_generation_prompt", false))
                .templating().continueFinalMessage());
    }

    @Test
    void jsonSchemaResponseFormatNeedsJsonSchema() {
        refused(body("response_format", map("type", "json_schema")), "response_format",
                "When response_format type is 'json_schema', the 'json_schema' field must be provided.");
    }

    @Test
    void requestChatTemplateIsReadForTheUseCase() {
        assertEquals(Optional.of("{{ x }}"), read(body("chat_template", "{{ x }}")).templating().chatTemplate());
    }

    @Test
    void chatTemplateKwargsMaySetNeitherTemplateNorTokenize() {
        refused(body("chat_template_kwargs", map("tokenize", true)), "chat_template_kwargs",
                "Found unexpected chat template kwargs from request: {'tokenize'}");
        refused(body("chat_template_kwargs", map("chat_template", "{{ x }}")), "chat_template_kwargs",
                "Found unexpected chat template kwargs from request: {'chat_template'}");
    }

    @Test
    void mmProcessorKwargsAreAcceptedWithoutEffect() {
        assertEquals(Map.of("a", 1), read(body("mm_processor_kwargs", map("a", 1))).templating().mmProcessorKwargs());
        assertEquals(Map.of(), read(body("mm_processor_kwargs", map())).templating().mmProcessorKwargs());
    }

    @Test
    void repetitionDetectionSizesAreOrdered() {
        refused(body("repetition_detection", map("max_pattern_size", 2, "min_pattern_size", 3, "min_count", 2)),
                "repetition_detection", "max_pattern_size, min_pattern_size must be >=0, with min_pattern_size <= "
                        + "max_pattern_size. Set both to 0 to disable repetitive pattern detection.");
    }

    @Test
    void repetitionDetectionNeedsMinCountTwo() {
        refused(body("repetition_detection", map("max_pattern_size", 2, "min_count", 1)), "repetition_detection",
                "min_count must be >= 2 to detect repetitive patterns in engine output. If you do not wish to detect "
                        + "repetitive patterns, set max_pattern_size to 0.");
    }
}
