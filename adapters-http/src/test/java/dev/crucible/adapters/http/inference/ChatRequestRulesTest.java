package dev.crucible.adapters.http.inference;

import static dev.crucible.adapters.http.inference.ChatBodies.body;
import static dev.crucible.adapters.http.inference.ChatBodies.map;
import static dev.crucible.adapters.http.inference.ChatBodies.read;
import static dev.crucible.adapters.http.inference.ChatBodies.refused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.crucible.application.inference.chat.ask.ToolChoice;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The protocol rules of {@code vllm-chat.md} §2: each refusal with vLLM's exact message and the field as param. */
class ChatRequestRulesTest {

    private static final String USAGE = "Correct usage: `{\"type\": \"function\", \"function\": {\"name\": "
            + "\"my_function\"}}`";
    private static final List<Object> TOOLS = List.of(map("type", "function", "function", map("name", "f")));
    private static final String SALT_EMPTY = "Parameter 'cache_salt' must be a non-empty string if provided.";
    private static final String SALT_SHAPE = "Parameter 'cache_salt' must be at most 128 characters and must not "
            + "contain '@', '/', '\\\\', or NUL.";
    private static final String TOP_NEEDS_LOGPROBS = "when using `top_logprobs`, `logprobs` must be set to true.";
    private static final String KWARGS = "Found unexpected chat template kwargs from request: ";

    /** The rule, a body that breaks it, the field named and vLLM's message. */
    static Stream<Arguments> rules() {
        return Stream.of(
                arguments("cache_salt must be a non-empty string", body("cache_salt", ""), "cache_salt", SALT_EMPTY),
                arguments("cache_salt must be a string", body("cache_salt", 5), "cache_salt", SALT_EMPTY),
                arguments("cache_salt has no separators", body("cache_salt", "a/b"), "cache_salt", SALT_SHAPE),
                arguments("cache_salt is short", body("cache_salt", "x".repeat(129)), "cache_salt", SALT_SHAPE),
                arguments("stream_options need stream", body("stream_options", map("include_usage", null)),
                        "stream_options", "Stream options can only be defined when `stream=True`."),
                arguments("prompt_logprobs must be an integer", body("prompt_logprobs", "x"), "prompt_logprobs",
                        "`prompt_logprobs` must be an integer."),
                arguments("prompt_logprobs are not available when streaming",
                        body("prompt_logprobs", -1, "stream", true), "prompt_logprobs",
                        "`prompt_logprobs` are not available when `stream=True`."),
                arguments("prompt_logprobs are positive or -1", body("prompt_logprobs", -2), "prompt_logprobs",
                        "`prompt_logprobs` must be a positive value or -1."),
                arguments("top_logprobs must be an integer", body("top_logprobs", "5"), "top_logprobs",
                        "`top_logprobs` must be an integer."),
                arguments("top_logprobs are positive or -1", body("top_logprobs", -2, "logprobs", true),
                        "top_logprobs", "`top_logprobs` must be a positive value or -1."),
                arguments("top_logprobs need logprobs", body("top_logprobs", 2), "top_logprobs", TOP_NEEDS_LOGPROBS),
                arguments("top_logprobs need logprobs true", body("top_logprobs", -1, "logprobs", false),
                        "top_logprobs", TOP_NEEDS_LOGPROBS),
                arguments("structured_outputs take one of json, regex, choice",
                        body("structured_outputs", map("regex", "a", "choice", List.of("a"))), "structured_outputs",
                        "You can only use one kind of constraints for structured outputs ('json', 'regex' or "
                                + "'choice')."),
                arguments("structured_outputs need a constraint", body("structured_outputs", map()),
                        "structured_outputs", "You must use one kind of structured outputs constraint but none are "
                                + "specified: {'json': None, 'regex': None, 'choice': None, 'grammar': None, "
                                + "'json_object': None, 'structural_tag': None}"),
                arguments("structured_outputs and a named tool are exclusive", body("structured_outputs",
                        map("regex", "a"), "tools", TOOLS, "tool_choice", map("type", "function", "function",
                                map("name", "f"))), "structured_outputs",
                        "You can only either use constraints for structured outputs or tools, not both."),
                arguments("tool_choice needs tools", body("tool_choice", "auto"), "tool_choice",
                        "When using `tool_choice`, `tools` must be set."),
                arguments("a tool_choice string must be known", body("tools", TOOLS, "tool_choice", "bogus"),
                        "tool_choice", "Invalid value for `tool_choice`: bogus! Only named tools, \"none\", \"auto\" "
                                + "or \"required\" are supported."),
                arguments("a named tool_choice needs function", body("tools", TOOLS, "tool_choice",
                        map("type", "function")), "tool_choice",
                        "Invalid value for `function`: `None` in `tool_choice`! " + USAGE),
                arguments("a named tool_choice needs a name", body("tools", TOOLS, "tool_choice",
                        map("type", "function", "function", map())), "tool_choice",
                        "Expected field `name` in `function` in `tool_choice`! " + USAGE),
                arguments("a named tool_choice needs a non-empty name", body("tools", TOOLS, "tool_choice",
                        map("type", "function", "function", map("name", ""))), "tool_choice",
                        "Invalid `name` in `function`: `` in `tool_choice`! " + USAGE),
                arguments("a named tool_choice must match a tool", body("tools", TOOLS, "tool_choice",
                        map("type", "function", "function", map("name", "g"))), "tool_choice",
                        "The tool specified in `tool_choice` does not match any of the specified `tools`"),
                arguments("tools must not be empty", body("tools", List.of()), "tools", "`tools` must not be an "
                        + "empty array. Either provide at least one tool or omit the field entirely."),
                arguments("add_generation_prompt and continue_final_message are exclusive",
                        body("continue_final_message", true, "add_generation_prompt", true), "continue_final_message",
                        "Cannot set both `continue_final_message` and `add_generation_prompt` to True."),
                arguments("a json_schema response_format needs json_schema",
                        body("response_format", map("type", "json_schema")), "response_format",
                        "When response_format type is 'json_schema', the 'json_schema' field must be provided."),
                arguments("chat_template_kwargs may not set tokenize", body("chat_template_kwargs",
                        map("tokenize", true)), "chat_template_kwargs", KWARGS + "{'tokenize'}"),
                arguments("chat_template_kwargs may not set the template", body("chat_template_kwargs",
                        map("chat_template", "{{ x }}")), "chat_template_kwargs", KWARGS + "{'chat_template'}"),
                arguments("repetition_detection sizes are ordered", body("repetition_detection",
                        map("max_pattern_size", 2, "min_pattern_size", 3, "min_count", 2)), "repetition_detection",
                        "max_pattern_size, min_pattern_size must be >=0, with min_pattern_size <= max_pattern_size. "
                                + "Set both to 0 to disable repetitive pattern detection."),
                arguments("repetition_detection needs min_count 2", body("repetition_detection",
                        map("max_pattern_size", 2, "min_count", 1)), "repetition_detection",
                        "min_count must be >= 2 to detect repetitive patterns in engine output. If you do not wish to "
                                + "detect repetitive patterns, set max_pattern_size to 0."));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void refusesWhatBreaksARule(String rule, Map<String, Object> body, String param, String message) {
        refused(body, param, message);
    }

    @Test
    void promptLogprobsZeroIsAvailableWhenStreaming() {
        assertEquals(0, read(body("prompt_logprobs", 0, "stream", true)).logprobs().promptLogprobs().getAsInt());
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
    void continueFinalMessageAloneIsRead() {
        assertEquals(true, read(body("continue_final_message", true, "add_generation_prompt", false))
                .templating().continueFinalMessage());
    }

    @Test
    void requestChatTemplateIsReadForTheUseCase() {
        assertEquals(Optional.of("{{ x }}"), read(body("chat_template", "{{ x }}")).templating().chatTemplate());
    }

    @Test
    void mmProcessorKwargsAreAcceptedWithoutEffect() {
        assertEquals(Map.of("a", 1), read(body("mm_processor_kwargs", map("a", 1))).templating().mmProcessorKwargs());
        assertEquals(Map.of(), read(body("mm_processor_kwargs", map())).templating().mmProcessorKwargs());
    }
}
