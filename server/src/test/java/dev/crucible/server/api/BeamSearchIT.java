package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code use_beam_search} against the tiny random-weight model, raw HTTP and the OpenAI SDK. The assertions do not
 * depend on the model's words: scores are recomputed from the returned logprobs with vLLM's formula, and the model's
 * own top tokens (from a plain greedy request) are the brute-force answer for one step.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BeamSearchIT {

    private static final String PROMPT = "Hello there";

    @AutoClose
    private final TestServer server = TestServer.start(Map.of());
    private final String key = server.newKey("bea");
    private final Api api = server.api(key);

    private static Map<String, Object> request(Object... pairs) {
        return RequestBodies.chat(PROMPT, pairs);
    }

    private static Map<String, Object> beams(int n, int maxTokens, Object... pairs) {
        Map<String, Object> body = request("use_beam_search", true, "n", n, "max_tokens", maxTokens, "logprobs", true,
                "return_token_ids", true);
        return RequestBodies.with(body, pairs);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> choices(Api.Reply reply) {
        assertEquals(200, reply.status(), reply.toString());
        return (List<Map<String, Object>>) reply.json().get("choices");
    }

    @SuppressWarnings("unchecked")
    private static List<Integer> tokenIds(Map<String, Object> choice) {
        return (List<Integer>) choice.get("token_ids");
    }

    @SuppressWarnings("unchecked")
    private static double cumulativeLogprob(Map<String, Object> choice) {
        List<Map<String, Object>> content = (List<Map<String, Object>>) ((Map<String, Object>) choice.get("logprobs"))
                .get("content");
        assertEquals(tokenIds(choice).size(), content.size(), "one logprob per returned token");
        return content.stream().mapToDouble(c -> ((Number) c.get("logprob")).doubleValue()).sum();
    }

    private static String content(Map<String, Object> choice) {
        return (String) ((Map<?, ?>) choice.get("message")).get("content");
    }

    private static int promptTokens(Api.Reply reply) {
        return ((Number) ((Map<?, ?>) reply.json().get("usage")).get("prompt_tokens")).intValue();
    }

    /** vLLM's score of a returned choice: the prompt counts towards the length, a final EOS does not. */
    private static double score(Map<String, Object> choice, int promptTokens, double lengthPenalty) {
        int length = promptTokens + tokenIds(choice).size() - ("stop".equals(choice.get("finish_reason")) ? 1 : 0);
        return cumulativeLogprob(choice) / Math.pow(length, lengthPenalty);
    }

    @Test
    void nDistinctBeamsComeBestFirstWithUsageAndRepeatExactly() {
        Map<String, Object> body = beams(3, 5, "ignore_eos", true, "temperature", 0);
        Api.Reply first = api.post("/v1/chat/completions", body);
        List<Map<String, Object>> choices = choices(first);

        assertEquals(3, choices.size(), "n beams, even with temperature 0: beam search has no greedy check");
        int prompt = promptTokens(first);
        double previous = Double.POSITIVE_INFINITY;
        for (int i = 0; i < 3; i++) {
            Map<String, Object> choice = choices.get(i);
            assertEquals(i, ((Number) choice.get("index")).intValue());
            assertEquals("length", choice.get("finish_reason"));
            assertEquals(5, tokenIds(choice).size());
            double score = score(choice, prompt, 1.0);
            assertTrue(score <= previous + 1e-9, "best first: " + score + " after " + previous);
            previous = score;
        }
        assertEquals(3, choices.stream().map(BeamSearchIT::tokenIds).distinct().count(), "the beams differ");
        Map<?, ?> usage = (Map<?, ?>) first.json().get("usage");
        assertEquals(15, ((Number) usage.get("completion_tokens")).intValue(), "every returned beam's tokens");
        assertEquals(prompt + 15, ((Number) usage.get("total_tokens")).intValue());
        assertEquals(choices, choices(api.post("/v1/chat/completions", body)), "deterministic");
    }

    @SuppressWarnings("unchecked")
    @Test
    void oneStepOfBeamsIsTheModelsOwnTopTokens() {
        Api.Reply greedy = api.post("/v1/chat/completions", request("max_tokens", 1, "temperature", 0,
                "ignore_eos", true, "logprobs", true, "top_logprobs", 4, "return_tokens_as_token_ids", true));
        assertEquals(200, greedy.status(), greedy.toString());
        List<Map<String, Object>> top = (List<Map<String, Object>>) ((List<Map<String, Object>>)
                ((Map<String, Object>) greedy.firstChoice().get("logprobs")).get("content")).getFirst()
                .get("top_logprobs");
        List<String> best = top.stream().map(t -> (String) t.get("token")).toList();

        List<Map<String, Object>> beams = choices(api.post("/v1/chat/completions", beams(4, 1, "ignore_eos", true)));

        assertEquals(best, beams.stream().map(c -> "token_id:" + tokenIds(c).getFirst()).toList(),
                "with one token the best 4 beams are the 4 most likely tokens, in order");
    }

    @Test
    void oneBeamWithoutEosIsGreedyDecoding() {
        Map<String, Object> greedy = choices(api.post("/v1/chat/completions", request("max_tokens", 8,
                "temperature", 0, "ignore_eos", true, "return_token_ids", true))).getFirst();
        Map<String, Object> beam = choices(api.post("/v1/chat/completions", beams(1, 8, "ignore_eos", true)))
                .getFirst();
        assertEquals(tokenIds(greedy), tokenIds(beam));
        assertEquals(content(greedy), content(beam));
    }

    @Test
    void theLengthPenaltyRanksEosEndedAndFullBeamsByTheFormula() {
        for (double penalty : new double[] {0.0, 2.0}) {
            Api.Reply reply = api.post("/v1/chat/completions", beams(4, 4, "length_penalty", penalty,
                    "include_stop_str_in_output", true));
            List<Map<String, Object>> choices = choices(reply);
            assertEquals(4, choices.size());
            double previous = Double.POSITIVE_INFINITY;
            for (Map<String, Object> choice : choices) {
                String reason = (String) choice.get("finish_reason");
                assertTrue(reason.equals("stop") || tokenIds(choice).size() == 4, "a beam without EOS runs to max_tokens");
                double score = score(choice, promptTokens(reply), penalty);
                assertTrue(score <= previous + 1e-9, "penalty " + penalty + ": " + score + " after " + previous);
                previous = score;
            }
        }
    }

    @SuppressWarnings("unchecked")
    @Test
    void aStreamCarriesTheSameBeamsWhole() throws IOException {
        Map<String, Object> body = beams(2, 4, "ignore_eos", true);
        List<Map<String, Object>> whole = choices(api.post("/v1/chat/completions", body));
        Map<String, Object> streamed = new HashMap<>(body);
        streamed.put("stream", true);

        Api.Events events = api.stream("/v1/chat/completions", streamed);

        assertEquals(200, events.status());
        assertEquals("data: [DONE]", events.data().getLast());
        JsonMapper json = JsonMapper.createDefault();
        List<StringBuilder> texts = List.of(new StringBuilder(), new StringBuilder());
        List<String> reasons = new ArrayList<>(List.of("", ""));
        for (String event : events.data().subList(0, events.data().size() - 1)) {
            Map<String, Object> chunk = json.readValue(event.substring("data: ".length()), Argument.mapOf(String.class,
                    Object.class));
            for (Map<String, Object> choice : (List<Map<String, Object>>) chunk.get("choices")) {
                int index = ((Number) choice.get("index")).intValue();
                Object text = ((Map<?, ?>) choice.get("delta")).get("content");
                texts.get(index).append(text == null ? "" : text);
                if (choice.get("finish_reason") != null) {
                    reasons.set(index, (String) choice.get("finish_reason"));
                }
            }
        }
        assertEquals(whole.stream().map(BeamSearchIT::content).toList(), texts.stream().map(String::valueOf).toList());
        assertEquals(List.of("length", "length"), reasons);
    }

    @Test
    void theSdkSendsBeamSearchAsAnExtraBodyField() {
        OpenAIClient client = OpenAIOkHttpClient.builder().apiKey(key).baseUrl(server.url() + "/v1").maxRetries(0)
                .build();
        ChatCompletion completion = client.chat().completions().create(ChatCompletionCreateParams.builder()
                .model(TestServer.BASE_MODEL).addUserMessage(PROMPT).maxCompletionTokens(4).n(2)
                .putAdditionalBodyProperty("use_beam_search", JsonValue.from(true))
                .putAdditionalBodyProperty("ignore_eos", JsonValue.from(true)).build());

        List<Map<String, Object>> raw = choices(api.post("/v1/chat/completions",
                request("use_beam_search", true, "n", 2, "max_completion_tokens", 4, "ignore_eos", true)));
        assertEquals(raw.stream().map(BeamSearchIT::content).toList(),
                completion.choices().stream().map(c -> c.message().content().orElse("")).toList());
        assertEquals(8L, completion.usage().orElseThrow().completionTokens());
    }

    @Test
    void combinationsBeamSearchCannotServeAreRefusedNamingTheField() {
        Api.Reply wide = api.post("/v1/chat/completions", beams(11, 2));
        assertEquals(400, wide.status(), wide.toString());
        assertEquals("n", wide.error().get("param"));
        Api.Reply json = api.post("/v1/chat/completions", beams(2, 2, "response_format", Map.of("type", "json_object")));
        assertEquals(400, json.status(), json.toString());
        assertEquals("response_format", json.error().get("param"));
        Api.Reply regex = api.post("/v1/chat/completions", beams(2, 2, "structured_outputs", Map.of("regex", "a+")));
        assertEquals(400, regex.status(), regex.toString());
        assertEquals("structured_outputs", regex.error().get("param"));
        Api.Reply plain = api.post("/v1/chat/completions", request("n", 2, "temperature", 0, "max_tokens", 2));
        assertEquals(400, plain.status(), "without beam search greedy n=2 is still refused");
        assertNotEquals(null, plain.error().get("message"));
    }
}
