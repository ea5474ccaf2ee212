package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The chat fields a server setting or a model's template decides: custom roles, continuous usage, the repetition
 * stop reason, a request's own chat template, {@code mm_processor_kwargs}, and {@code priority} under each scheduling
 * policy; {@code truncate_prompt_tokens} and prompts of no tokens; {@code n} bounded by the batch. One server on the
 * defaults, one with priority scheduling, request templates refused and a batch of 4 sequences.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChatRequestFieldsIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @AutoClose
    private final TestServer server = TestServer.start(Map.of());
    private final Api api = server.api(server.newKey("rita"));
    @AutoClose
    private final TestServer configured = TestServer.start(Map.of(
            "crucible.model-scheduling", List.of(TestServer.BASE_MODEL + "=priority"),
            "crucible.inference.trust-request-chat-template", false,
            "crucible.inference.max-batch-sequences", 4));
    private final Api configuredApi = configured.api(configured.newKey("sam"));

    private static Map<String, Object> request(Object... pairs) {
        return RequestBodies.chat("Hello there", pairs);
    }

    @Test
    void aCustomRoleIsRenderedAsATurnOfItsOwn() {
        Map<String, Object> plain = request("max_tokens", 1);
        Map<String, Object> custom = request("max_tokens", 1, "messages", List.of(
                Map.of("role", "my-custom-role", "content", "a note from elsewhere"),
                Map.of("role", "user", "content", "Hello there")));
        Api.Reply a = api.post("/v1/chat/completions", plain);
        Api.Reply b = api.post("/v1/chat/completions", custom);
        assertEquals(200, b.status(), b.toString());
        assertTrue(promptTokens(b) > promptTokens(a), "the custom turn is in the prompt: " + b);
    }

    @Test
    void continuousUsageStatsPutUsageOnEveryChunk() {
        List<Map<String, Object>> chunks = chunks(request("stream", true, "max_tokens", 5, "min_tokens", 5,
                "stream_options", Map.of("include_usage", true, "continuous_usage_stats", true)));
        int previous = -1;
        for (Map<String, Object> chunk : chunks) {
            Map<?, ?> usage = (Map<?, ?>) chunk.get("usage");
            assertTrue(usage != null, "every chunk carries usage: " + chunk);
            int completion = ((Number) usage.get("completion_tokens")).intValue();
            assertEquals(((Number) usage.get("prompt_tokens")).intValue() + completion,
                    ((Number) usage.get("total_tokens")).intValue());
            if (((List<?>) chunk.get("choices")).isEmpty()) {
                assertEquals(previous, completion, "the final usage chunk repeats the last count");
            } else {
                assertTrue(completion > previous, "completion tokens grow chunk by chunk: " + chunks);
            }
            previous = completion;
        }
        assertEquals(5, previous);
        List<Map<String, Object>> withoutIncludeUsage = chunks(request("stream", true, "max_tokens", 3,
                "stream_options", Map.of("continuous_usage_stats", true)));
        assertTrue(withoutIncludeUsage.stream().noneMatch(c -> c.containsKey("usage")),
                "continuous usage needs include_usage, as in vLLM: " + withoutIncludeUsage);
    }

    @SuppressWarnings("unchecked")
    @Test
    void aDetectedRepetitionSaysSoInStopReason() {
        // one token forced by its bias repeats itself, a pattern of size 1
        Map<String, Object> body = request("max_tokens", 40, "temperature", 0, "ignore_eos", true,
                "logit_bias", Map.of("50", 100), "repetition_detection",
                Map.of("max_pattern_size", 2, "min_pattern_size", 1, "min_count", 4));
        Api.Reply reply = api.post("/v1/chat/completions", body);
        assertEquals(200, reply.status(), reply.toString());
        assertEquals("repetition", reply.firstChoice().get("finish_reason"));
        assertEquals("repetition_detected", reply.firstChoice().get("stop_reason"));
        Map<String, Object> streamed = chunks(with(body, "stream", true)).stream()
                .filter(c -> !((List<?>) c.get("choices")).isEmpty())
                .map(c -> (Map<String, Object>) ((List<?>) c.get("choices")).getFirst()).toList().getLast();
        assertEquals("repetition_detected", streamed.get("stop_reason"));
    }

    @Test
    void aRequestTemplateIsRenderedInsteadOfTheModels() {
        String template = "{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}<assistant>";
        Api.Reply own = api.post("/v1/chat/completions", request("max_tokens", 1, "chat_template", template,
                "return_token_ids", true));
        Api.Reply model = api.post("/v1/chat/completions", request("max_tokens", 1, "return_token_ids", true));
        assertEquals(200, own.status(), own.toString());
        assertFalse(own.json().get("prompt_token_ids").equals(model.json().get("prompt_token_ids")),
                "the request's template made another prompt");
        Api.Reply raised = api.post("/v1/chat/completions", request("chat_template",
                "{{ raise_exception('this template refuses') }}"));
        assertEquals(400, raised.status(), raised.toString());
        assertEquals("this template refuses", raised.error().get("message"));
        Api.Reply reader = api.post("/v1/chat/completions", request("chat_template",
                "{% include 'application.yml' %}", "return_token_ids", true));
        assertEquals(400, reader.status(), "a request template reads no file of the server: " + reader);
        assertFalse(reader.toString().contains("crucible"), reader.toString());
        Api.Reply broken = api.post("/v1/chat/completions", request("chat_template", "{% for %}"));
        assertEquals(400, broken.status(), broken.toString());
        assertEquals("chat_template", broken.error().get("param"));
    }

    @Test
    void aRequestTemplateIsBoundedInTimeAndOutput() {
        Api.Reply slow = api.post("/v1/chat/completions", request("chat_template",
                "{% for a in range(999) %}{% for b in range(999) %}{% for c in range(999) %}{% endfor %}"
                        + "{% endfor %}{% endfor %}"));
        slow.assertRefused(400, "chat_template", "took longer than 2000 ms");
        Api.Reply huge = api.post("/v1/chat/completions", request("chat_template",
                "{% for a in range(999) %}{% for b in range(999) %}0123456789{% endfor %}{% endfor %}"));
        assertEquals(400, huge.status(), huge.toString());
        assertEquals(200, api.post("/v1/chat/completions", request("max_tokens", 1)).status(),
                "the server serves on after refusing them");
    }

    @Test
    void aServerThatDoesNotTrustRequestTemplatesRefusesThemNamingItsSetting() {
        Api.Reply refused = configuredApi.post("/v1/chat/completions", request("chat_template", "{{ 'x' }}"));
        refused.assertRefused(400, "chat_template", "crucible.inference.trust-request-chat-template");
    }

    @Test
    void mmProcessorKwargsAreAcceptedWithoutEffect() {
        Api.Reply with = api.post("/v1/chat/completions", request("max_tokens", 3, "temperature", 0,
                "mm_processor_kwargs", Map.of("num_crops", 4)));
        Api.Reply without = api.post("/v1/chat/completions", request("max_tokens", 3, "temperature", 0));
        assertEquals(200, with.status(), with.toString());
        assertEquals(without.firstChoice().get("message"), with.firstChoice().get("message"));
    }

    @Test
    void priorityNeedsAModelScheduledByPriority() {
        Api.Reply fcfs = api.post("/v1/chat/completions", request("max_tokens", 1, "priority", 3));
        assertEquals(400, fcfs.status(), fcfs.toString());
        assertEquals("priority", fcfs.error().get("param"));
        assertEquals("Got priority 3 but Priority scheduling is not enabled.", fcfs.error().get("message"));
        assertEquals(200, api.post("/v1/chat/completions", request("max_tokens", 1, "priority", 0)).status());
        assertEquals(200, configuredApi.post("/v1/chat/completions", request("max_tokens", 1, "priority", -5))
                .status());
        assertEquals("fcfs", policy(api, TestServer.BASE_MODEL));
        assertEquals("priority", policy(configuredApi, TestServer.BASE_MODEL));
        assertEquals("fcfs", policy(configuredApi, TestServer.OTHER_BASE_MODEL));
    }

    @Test
    void truncatePromptTokensZeroIsA400NamingItAsVllmAnswers() {
        for (int truncate : new int[] {0, -2}) {
            Api.Reply refused = api.post("/v1/chat/completions", request("max_tokens", 1,
                    "truncate_prompt_tokens", truncate));
            assertEquals(400, refused.status(), refused.toString());
            assertEquals("truncate_prompt_tokens", refused.error().get("param"));
        }
        Api.Reply zero = api.post("/v1/chat/completions", request("max_tokens", 1, "truncate_prompt_tokens", 0));
        assertEquals("truncate_prompt_tokens must be an integer >= 1 or -1, got 0", zero.error().get("message"));
        for (int truncate : new int[] {-1, 1}) {
            Api.Reply kept = api.post("/v1/chat/completions", request("max_tokens", 1,
                    "truncate_prompt_tokens", truncate));
            assertEquals(200, kept.status(), kept.toString());
        }
    }

    @Test
    void aPromptOfNoTokensIsA400NamingMessages() {
        Api.Reply empty = api.post("/v1/chat/completions", request("max_tokens", 1,
                "chat_template", "{% if false %}never{% endif %}"));
        assertEquals(400, empty.status(), empty.toString());
        assertEquals("messages", empty.error().get("param"));
        assertEquals("The decoder prompt cannot be empty", empty.error().get("message"));
    }

    @Test
    void nIsBoundedByTheBatchNamingTheSetting() {
        Api.Reply thousand = api.post("/v1/chat/completions", request("max_tokens", 1, "n", 1000));
        assertEquals(400, thousand.status(), thousand.toString());
        assertEquals("n", thousand.error().get("param"));
        assertEquals("n must be at most 64, got 1000: the model decodes at most 64 sequences together "
                + "(crucible.inference.max-batch-sequences).", thousand.error().get("message"));

        Api.Reply five = configuredApi.post("/v1/chat/completions", request("max_tokens", 1, "n", 5));
        assertEquals(400, five.status(), five.toString());
        assertTrue(((String) five.error().get("message")).startsWith("n must be at most 4, got 5"), five.toString());
        Api.Reply beams = configuredApi.post("/v1/chat/completions", request("max_tokens", 1, "n", 5,
                "use_beam_search", true));
        assertEquals(400, beams.status(), "the beam width is n, bounded alike: " + beams);
        assertEquals("n", beams.error().get("param"));
        Api.Reply four = configuredApi.post("/v1/chat/completions", request("max_tokens", 1, "n", 4,
                "temperature", 1.0));
        assertEquals(200, four.status(), four.toString());
        assertEquals(4, ((List<?>) four.json().get("choices")).size());
    }

    private static String policy(Api api, String model) {
        Api.Reply reply = api.get("/v1/models/" + model);
        assertEquals(200, reply.status(), reply.toString());
        return reply.text("scheduling_policy");
    }

    private static int promptTokens(Api.Reply reply) {
        return ((Number) ((Map<?, ?>) reply.json().get("usage")).get("prompt_tokens")).intValue();
    }

    private static Map<String, Object> with(Map<String, Object> body, Object... pairs) {
        return RequestBodies.with(new HashMap<>(body), pairs);
    }

    /** The JSON chunks of a streamed completion, [DONE] left out. */
    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> chunks(Map<String, Object> body) {
        Api.Events events = api.stream("/v1/chat/completions", body);
        assertEquals(200, events.status(), events.body());
        List<Map<String, Object>> chunks = new ArrayList<>();
        for (String line : events.data()) {
            String data = line.substring("data: ".length());
            if (!data.equals("[DONE]")) {
                try {
                    chunks.add(JSON.readValue(data, Map.class));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return chunks;
    }
}
