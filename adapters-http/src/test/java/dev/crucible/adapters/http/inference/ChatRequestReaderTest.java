package dev.crucible.adapters.http.inference;

import static dev.crucible.adapters.http.inference.ChatBodies.body;
import static dev.crucible.adapters.http.inference.ChatBodies.map;
import static dev.crucible.adapters.http.inference.ChatBodies.read;
import static dev.crucible.adapters.http.inference.ChatBodies.refused;
import static dev.crucible.adapters.http.inference.ChatBodies.schemaRefused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.inference.chat.ask.ChatRequest;
import dev.crucible.application.inference.chat.ask.ResponseFormat;
import dev.crucible.application.inference.chat.ask.ToolChoice;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ChatRequestReaderTest {

    @Test
    void resolvesProtocolDefaultsAndLeavesModelDefaultsEmpty() {
        ChatRequest r = read(body());
        assertEquals(Optional.empty(), r.model());
        assertEquals(Optional.empty(), r.sampling().temperature());
        assertEquals(Optional.empty(), r.sampling().topP());
        assertEquals(Optional.empty(), r.sampling().topK());
        assertEquals(1, r.sampling().n());
        assertEquals(OptionalLong.empty(), r.sampling().seed());
        assertEquals(1.0, r.sampling().lengthPenalty());
        assertEquals(OptionalLong.empty(), r.stopping().maxTokens());
        assertEquals("max_tokens", r.stopping().maxTokensParam());
        assertEquals(List.of(), r.stopping().stop());
        assertEquals(0, r.logprobs().topLogprobs());
        assertEquals(OptionalInt.empty(), r.logprobs().promptLogprobs());
        assertFalse(r.streaming().stream());
        assertTrue(r.templating().addGenerationPrompt());
        assertFalse(r.templating().continueFinalMessage());
        assertFalse(r.templating().addSpecialTokens());
        assertEquals(new ToolChoice.None(), r.tools().toolChoice());
        assertTrue(r.tools().parallelToolCalls());
        assertTrue(r.output().includeReasoning());
        assertTrue(r.output().skipSpecialTokens());
        assertTrue(r.output().spacesBetweenSpecialTokens());
        assertEquals(0, r.serving().priority());
    }

    @Test
    void readsEveryFieldAsSent() {
        ChatRequest r = read(body("model", "base", "temperature", 0.5, "top_p", 0.9, "top_k", 5, "min_p", 0.1,
                "presence_penalty", 1, "frequency_penalty", -1, "repetition_penalty", 1.2, "n", 2, "seed", 42,
                "stop", "END", "stop_token_ids", List.of(7, 3, 7), "min_tokens", 2, "ignore_eos", true,
                "logprobs", true, "top_logprobs", 3, "prompt_logprobs", 0, "stream", true,
                "stream_options", map("include_usage", true, "continuous_usage_stats", true), "echo", true,
                "documents", List.of(map("title", "t", "text", "x")), "reasoning_effort", "low",
                "priority", -3, "request_id", "r1", "cache_salt", "salt", "user", "u", "use_beam_search", true,
                "length_penalty", 0.5, "truncate_prompt_tokens", -1, "bad_words", List.of("bad"),
                "allowed_token_ids", List.of(1, 2), "kv_transfer_params", map("a", 1),
                "repetition_detection", map("max_pattern_size", 4, "min_pattern_size", 1, "min_count", 3)));
        assertEquals(Optional.of("base"), r.model());
        assertEquals(Optional.of(0.5), r.sampling().temperature());
        assertEquals(Optional.of(5), r.sampling().topK());
        assertEquals(OptionalLong.of(42), r.sampling().seed());
        assertEquals(List.of("END"), r.stopping().stop());
        assertEquals(List.of(7, 3), r.stopping().stopTokenIds());
        assertEquals(OptionalLong.of(-1), r.stopping().truncatePromptTokens());
        assertEquals(4, r.stopping().repetitionDetection().maxPatternSize());
        assertEquals(3, r.logprobs().topLogprobs());
        assertTrue(r.streaming().includeUsage() && r.streaming().continuousUsageStats());
        assertEquals(Optional.of("low"), r.templating().reasoningEffort());
        assertEquals(-3, r.serving().priority());
        assertEquals(Optional.of("salt"), r.serving().cacheSalt());
        assertEquals(Optional.of(List.of(1, 2)), r.sampling().allowedTokenIds());
    }

    @Test
    void maxCompletionTokensWinsOverMaxTokens() {
        ChatRequest r = read(body("max_tokens", 5, "max_completion_tokens", 9));
        assertEquals(OptionalLong.of(9), r.stopping().maxTokens());
        assertEquals("max_completion_tokens", r.stopping().maxTokensParam());
        assertEquals(OptionalLong.of(5), read(body("max_tokens", 5)).stopping().maxTokens());
    }

    @Test
    void seedMinusOneIsNoSeed() {
        assertEquals(OptionalLong.empty(), read(body("seed", -1)).sampling().seed());
    }

    @Test
    void clampsLogitBiasAndParsesKeys() {
        ChatRequest r = read(body("logit_bias", map("5", 150, " 7", -300.5, "9", 1.5)));
        assertEquals(Map.of(5, 100.0, 7, -100.0, 9, 1.5), r.sampling().logitBias());
    }

    @Test
    void acceptsVllmXargsAsAliasOfEngineXargs() {
        assertEquals(Map.of("k", "v"), read(body("vllm_xargs", map("k", "v"))).serving().engineXargs());
        assertEquals(Map.of("k", 1), read(body("engine_xargs", map("k", 1), "vllm_xargs", map("x", 2)))
                .serving().engineXargs());
    }

    @Test
    void joinsTextPartsWithNewlineAndKeepsExtraKeys() {
        Map<String, Object> message = map("role", "user", "content", List.of(map("type", "text", "text", "a"),
                map("type", "text", "text", "b")), "x_extra", 1, "reasoning_content", "r");
        ChatRequest r = read(map("messages", List.of(message, map("role", "custom", "content", "c"))));
        assertEquals("a\nb", r.messages().get(0).get("content"));
        assertEquals(1, r.messages().get(0).get("x_extra"));
        assertEquals("r", r.messages().get(0).get("reasoning"));
        assertEquals("custom", r.messages().get(1).get("role"));
    }

    @Test
    void refusesNonTextContentPart() {
        Map<String, Object> message = map("role", "user", "content",
                List.of(map("type", "image_url", "image_url", map("url", "x"))));
        assertEquals("messages[0].content[0].type", ChatBodies.refusal(map("messages", List.of(message))).param());
    }

    @Test
    void acceptsLaxBooleansAsPydanticDoes() {
        assertTrue(read(body("echo", "true")).output().echo());
        assertFalse(read(body("skip_special_tokens", 0)).output().skipSpecialTokens());
    }

    @Test
    void ignoresUnknownFields() {
        assertEquals(1, read(body("thinking_token_budget", 5)).sampling().n());
    }

    @Test
    void emptyStreamOptionsAreAcceptedWithoutStream() {
        assertFalse(read(body("stream_options", map())).streaming().includeUsage());
    }

    @Test
    void readsResponseFormatAndStructuredOutputs() {
        ChatRequest r = read(body("response_format", map("type", "json_schema", "json_schema",
                map("name", "n", "schema", map("type", "object"))), "structured_outputs", map("regex", "a+")));
        assertEquals(ResponseFormat.Type.JSON_SCHEMA, r.output().responseFormat().orElseThrow().type());
        assertEquals("n", r.output().responseFormat().orElseThrow().jsonSchema().orElseThrow().name());
        assertEquals(Optional.of("a+"), r.output().structuredOutputs().orElseThrow().regex());
    }

    @Test
    void aSchemaOrStructuralTagSentAsAJsonStringIsParsed() {
        var outputs = read(body("structured_outputs", map("json", "{\"type\": \"integer\"}"))).output()
                .structuredOutputs().orElseThrow();
        assertEquals(Optional.of(Map.of("type", "integer")), outputs.json());
        var tagged = read(body("structured_outputs", map("structural_tag",
                "{\"triggers\": [\"<f\"], \"structures\": []}"))).output().structuredOutputs().orElseThrow();
        assertEquals(Optional.of(Map.of("triggers", List.of("<f"), "structures", List.of())), tagged.structuralTag());
    }

    /** A JSON string that does not parse, or is no object where one is wanted, is refused naming the field. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            json           | {not json | Invalid JSON grammar specification.
            json           | ''        | structured_outputs.json cannot be an empty string
            structural_tag | [1]       | Invalid structured_outputs structural_tag specification: it must be a JSON object in a string
            structural_tag | {oops     | Invalid structured_outputs structural_tag specification: it must be a JSON object in a string
            """)
    void aBadSchemaOrStructuralTagStringIsRefused(String key, String text, String message) {
        refused(body("structured_outputs", map(key, text)), "structured_outputs", message);
    }

    @Test
    void toolsWithChoiceNoneAreKeptForTheTemplate() {
        ChatRequest r = read(body("tools", List.of(map("type", "function", "function", map("name", "f"))),
                "tool_choice", "none"));
        assertEquals(1, r.tools().tools().orElseThrow().size());
        assertEquals(new ToolChoice.None(), r.tools().toolChoice());
    }

    @Test
    void namesMissingMessages() {
        schemaRefused(map("model", "m"), "messages", "'type': 'missing'", "('body', 'messages')", "Field required");
    }

    @Test
    void namesMalformedTypes() {
        schemaRefused(body("temperature", "hot"), "temperature", "float_parsing");
        schemaRefused(body("n", 1.5), "n", "int_from_float");
        schemaRefused(body("stream", List.of()), "stream", "bool_type");
        schemaRefused(body("stop", List.of("a", 3)), "stop[1]", "string_type", "('body', 'stop', 1)");
        schemaRefused(map("messages", List.of("hi")), "messages[0]", "dict_type");
        schemaRefused(map("messages", List.of(map("content", "x"))), "messages[0].role", "missing");
        schemaRefused(body("logit_bias", map("1", "x")), "logit_bias.1", "float_parsing");
        schemaRefused(body("tools", List.of(map("type", "function"))), "tools[0].function", "missing");
    }

    @Test
    void refusesSeedOutsideInt64() {
        BigInteger over = BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.ONE);
        schemaRefused(body("seed", over), "seed", "less_than_equal", "9223372036854775807");
        schemaRefused(body("seed", over.negate().subtract(BigInteger.TWO)), "seed", "greater_than_equal");
    }

    @Test
    void refusesPriorityOutsideInt64() {
        schemaRefused(body("priority", BigInteger.TWO.pow(63)), "priority", "less_than_equal");
    }

    @Test
    void refusesTruncatePromptTokensBelowMinusOne() {
        schemaRefused(body("truncate_prompt_tokens", -2), "truncate_prompt_tokens", "greater_than_equal",
                "'ctx': {'ge': -1}");
    }

    @Test
    void refusesUnknownReasoningEffort() {
        schemaRefused(body("reasoning_effort", "ultra"), "reasoning_effort", "literal_error", "'input': 'ultra'");
    }

    @Test
    void refusesMoreThanFourStopStrings() {
        schemaRefused(body("stop", List.of("a", "b", "c", "d", "e")), "stop", "too_long",
                "List should have at most 4 items after validation, not 5");
    }

    @Test
    void refusesLogitBiasKeysThatAreNotIntegers() {
        refused(body("logit_bias", map("bad1", 1, "5", 1, "bad2", 2)), "logit_bias",
                "logit_bias contains key(s) that cannot be converted to integer token IDs: ['bad1', 'bad2']");
    }
}
