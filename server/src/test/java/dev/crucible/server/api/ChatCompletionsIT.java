package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Chat completions from a real (tiny, random-weight) Qwen3 model through the DJL engine. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChatCompletionsIT {

    @AutoClose
    private final TestServer server = TestServer.start(Map.of());
    private final Api api = server.api(server.newKey("olga"));

    private static Map<String, Object> request(Object... pairs) {
        return RequestBodies.chat("Hello there", pairs);
    }

    @SuppressWarnings("unchecked")
    @Test
    void greedyCompletionHasTheResponseShapeUsageAndIsDeterministic() {
        Api.Reply a = api.post("/v1/chat/completions", request("max_tokens", 8, "temperature", 0));
        assertEquals(200, a.status(), a.toString());
        assertEquals("chat.completion", a.json().get("object"));
        assertTrue(a.text("id").startsWith("chatcmpl-"));
        assertEquals(TestServer.BASE_MODEL, a.json().get("model"));
        Map<String, Object> choice = a.firstChoice();
        assertEquals("length", choice.get("finish_reason"));
        assertEquals("assistant", ((Map<String, Object>) choice.get("message")).get("role"));
        Map<String, Object> usage = (Map<String, Object>) a.json().get("usage");
        assertEquals(8, ((Number) usage.get("completion_tokens")).intValue());
        assertEquals(((Number) usage.get("prompt_tokens")).intValue() + 8, ((Number) usage.get("total_tokens")).intValue());
        Api.Reply b = api.post("/v1/chat/completions/", request("max_tokens", 8, "temperature", 0));
        assertEquals(200, b.status(), "the trailing-slash twin answers too");
        assertEquals(((Map<?, ?>) choice.get("message")).get("content"),
                ((Map<?, ?>) b.firstChoice().get("message")).get("content"));
    }

    @SuppressWarnings("unchecked")
    @Test
    void logprobsAndTokenIdsComeBackAsVllmWritesThem() {
        Api.Reply reply = api.post("/v1/chat/completions", request("max_completion_tokens", 4, "temperature", 0,
                "logprobs", true, "top_logprobs", 2, "return_tokens_as_token_ids", true, "return_token_ids", true));
        assertEquals(200, reply.status(), reply.toString());
        Map<String, Object> choice = reply.firstChoice();
        List<Integer> ids = (List<Integer>) choice.get("token_ids");
        assertEquals(4, ids.size());
        List<Map<String, Object>> content = (List<Map<String, Object>>) ((Map<String, Object>) choice.get("logprobs")).get("content");
        assertEquals(4, content.size());
        for (int i = 0; i < 4; i++) {
            assertEquals("token_id:" + ids.get(i), content.get(i).get("token"));
            assertEquals(2, ((List<?>) content.get(i).get("top_logprobs")).size());
            assertTrue(((Number) content.get(i).get("logprob")).doubleValue() <= 0);
        }
        assertTrue(((List<?>) reply.json().get("prompt_token_ids")).size() > 0);
    }

    @Test
    void seededSamplingIsReproducible() {
        Map<String, Object> body = request("max_tokens", 6, "temperature", 1.0, "seed", 42, "n", 2);
        Api.Reply a = api.post("/v1/chat/completions", body);
        Api.Reply b = api.post("/v1/chat/completions", body);
        assertEquals(200, a.status(), a.toString());
        assertEquals(a.json().get("choices"), b.json().get("choices"));
        assertEquals(2, ((List<?>) a.json().get("choices")).size());
    }

    @Test
    void streamingSendsChunksUsageAndDone() {
        Api.Events response = api.stream("/v1/chat/completions", "{\"model\":\"" + TestServer.BASE_MODEL
                + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}],\"max_tokens\":5,\"stream\":true,"
                + "\"stream_options\":{\"include_usage\":true}}");
        assertEquals(200, response.status());
        assertTrue(response.headers().getOrDefault("content-type", List.of("")).getFirst().startsWith("text/event-stream"));
        List<String> events = response.data();
        assertEquals("data: [DONE]", events.getLast());
        assertTrue(events.getFirst().contains("\"role\":\"assistant\""), events.getFirst());
        assertTrue(events.get(events.size() - 2).contains("\"usage\""), events.toString());
        assertTrue(events.stream().anyMatch(e -> e.contains("\"finish_reason\":\"length\"")), events.toString());
    }

    @Test
    void aTrainedModelAtStepZeroAnswersAsItsBaseAndOtherEntitiesGet404() {
        api.post("/v1/preview/models", RequestBodies.createModel("p", "agent"));
        Api.Reply trained = api.post("/v1/chat/completions", request("model", "wandb-artifact:///olga/p/agent",
                "max_tokens", 3, "temperature", 0));
        assertEquals(200, trained.status(), trained.toString());
        assertEquals("wandb-artifact:///olga/p/agent", trained.json().get("model"));
        Map<String, Object> rollout = trained.firstChoice();
        List<?> ids = (List<?>) rollout.get("token_ids");
        List<?> logprobs = (List<?>) ((Map<?, ?>) rollout.get("logprobs")).get("content");
        assertEquals(3, ids.size(), "a trained model's rollout carries its token ids unasked");
        assertEquals("token_id:" + ids.getFirst(), ((Map<?, ?>) logprobs.getFirst()).get("token"),
                "and its logprobs as token_id:N, as ART's server returns them");
        Api.Reply base = api.post("/v1/chat/completions", request("max_tokens", 3, "temperature", 0));
        assertEquals(((Map<?, ?>) base.firstChoice().get("message")).get("content"),
                ((Map<?, ?>) trained.firstChoice().get("message")).get("content"), "step 0 is the zero adapter");
        assertEquals(200, api.post("/v1/chat/completions", request("model", "crucible:///olga/p/agent:step0",
                "max_tokens", 1)).status());
        assertEquals(404, api.post("/v1/chat/completions", request("model", "crucible:///olga/p/agent:step7",
                "max_tokens", 1)).status());
        Api.Reply other = server.api(server.newKey("peter")).post("/v1/chat/completions",
                request("model", "wandb-artifact:///olga/p/agent", "max_tokens", 1));
        assertEquals(404, other.status());
        assertEquals("model", other.error().get("param"));
    }

    @Test
    void badRequestsAreRefusedWithVllmMessages() {
        Api.Reply unknown = api.post("/v1/chat/completions", request("model", "gpt-4"));
        assertEquals(404, unknown.status());
        assertEquals("The model `gpt-4` does not exist.", unknown.error().get("message"));
        Api.Reply topP = api.post("/v1/chat/completions", request("top_p", 1.5));
        assertEquals(400, topP.status());
        assertTrue(((String) topP.error().get("message")).contains("top_p must be in (0, 1], got 1.5"), topP.toString());
        Api.Reply both = api.post("/v1/chat/completions", request("continue_final_message", true, "add_generation_prompt", true));
        assertEquals(400, both.status());
        Api.Reply options = api.post("/v1/chat/completions", request("stream_options", Map.of("include_usage", true)));
        assertEquals(400, options.status());
        assertEquals("stream_options", options.error().get("param"));
        Api.Reply noMessages = api.post("/v1/chat/completions", Map.of("model", TestServer.BASE_MODEL));
        assertEquals(400, noMessages.status());
        assertNull(api.withAuthorization(null).post("/v1/chat/completions", request()).json().get("choices"));
    }

    @SuppressWarnings("unchecked")
    @Test
    void promptLogprobsCoverEveryPromptTokenWithRanksAsVllmWritesThem() {
        Api.Reply reply = api.post("/v1/chat/completions", request("max_tokens", 1, "prompt_logprobs", 2,
                "return_token_ids", true));
        assertEquals(200, reply.status(), reply.toString());
        List<Object> prompt = (List<Object>) reply.json().get("prompt_token_ids");
        List<Object> entries = (List<Object>) reply.json().get("prompt_logprobs");
        assertEquals(prompt.size(), entries.size(), "one entry per prompt token");
        assertNull(entries.getFirst(), "the first token has no context");
        for (int i = 1; i < entries.size(); i++) {
            Map<String, Map<String, Object>> position = (Map<String, Map<String, Object>>) entries.get(i);
            String actual = String.valueOf(prompt.get(i));
            assertEquals(actual, position.keySet().iterator().next(), "the actual prompt token comes first");
            assertTrue(position.size() == 2 || position.size() == 3, position.toString());
            long ones = position.values().stream().filter(v -> ((Number) v.get("rank")).intValue() == 1).count();
            assertEquals(1, ones, "exactly one top-ranked token: " + position);
            for (Map<String, Object> value : position.values()) {
                double logprob = ((Number) value.get("logprob")).doubleValue();
                assertTrue(logprob <= 0 && logprob >= -9999, position.toString());
                assertTrue(value.get("decoded_token") instanceof String);
            }
        }
        assertNull(api.post("/v1/chat/completions", request("max_tokens", 1)).json().get("prompt_logprobs"));
        Api.Reply all = api.post("/v1/chat/completions", request("max_tokens", 1, "prompt_logprobs", -1));
        assertEquals(400, all.status());
        assertTrue(((String) all.error().get("message")).contains("Requested prompt logprobs of"), all.toString());
        Api.Reply streamed = api.post("/v1/chat/completions", request("prompt_logprobs", 1, "stream", true));
        assertEquals(400, streamed.status());
    }

    @SuppressWarnings("unchecked")
    @Test
    void specialTokensAreSkippedUnlessAskedForAndThenWrittenAsTheFastDetokenizerDoes() {
        Api.Reply ids = api.post("/v1/chat/completions", request("max_tokens", 1, "return_token_ids", true));
        Object imStart = ((List<Object>) ids.json().get("prompt_token_ids")).getFirst();
        Map<String, Object> forced = Map.of("allowed_token_ids", List.of(imStart), "max_tokens", 3);
        Map<String, Object> skipped = request();
        skipped.putAll(forced);
        assertEquals("", ((Map<?, ?>) api.post("/v1/chat/completions", skipped).firstChoice().get("message")).get("content"));
        for (boolean spaces : List.of(true, false)) {
            Map<String, Object> kept = request("skip_special_tokens", false, "spaces_between_special_tokens", spaces);
            kept.putAll(forced);
            Api.Reply reply = api.post("/v1/chat/completions", kept);
            assertEquals("<|im_start|><|im_start|><|im_start|>",
                    ((Map<?, ?>) reply.firstChoice().get("message")).get("content"),
                    "byte-level BPE puts no space before special tokens (spaces_between_special_tokens=" + spaces + ")");
        }
        String body = api.stream("/v1/chat/completions", "{\"model\":\"" + TestServer.BASE_MODEL + "\",\"messages\":"
                + "[{\"role\":\"user\",\"content\":\"Hi\"}],\"max_tokens\":3,\"stream\":true,"
                + "\"skip_special_tokens\":false,\"allowed_token_ids\":[" + imStart + "]}").body();
        assertEquals(3, body.split("<\\|im_start\\|>", -1).length - 1, body);
    }
}
