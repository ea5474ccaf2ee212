package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.errors.PermissionDeniedException;
import com.openai.models.admin.organization.usage.UsageCompletionsParams;
import com.openai.models.admin.organization.usage.UsageCompletionsResponse;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Usage per project: completions under two projects (and the default one), two models and two keys, streamed and
 * not, then read back through {@code GET /v1/organization/usage/completions}. The buckets add up to the usage the
 * completions reported; group_by splits it, filters select it, pages walk it; another entity sees none of it;
 * refused requests count nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UsageIT {

    private static final String USAGE = "/v1/organization/usage/completions";
    private static final ObjectMapper JSON = new ObjectMapper();

    @AutoClose
    private final TestServer server = TestServer.start(Map.of());
    private final long start = Instant.now().getEpochSecond();
    private final String firstKey = server.newKey("alice");
    private final Api alice = server.api(firstKey);
    private final Api aliceOtherKey = server.api(server.newKey("alice"));
    private final Api mallory = server.api(server.newKey("mallory"));
    /** Its own entity, so that its cut stream is apart from alice's sums. */
    private final String carolKey = server.newKey("carol");
    /** The usage each completion reported, by project, model and which key ("first" or "other"). */
    private final List<Made> made = new ArrayList<>();

    private record Made(String project, String model, String key, long input, long output) {
    }

    UsageIT() throws Exception {
        refusedRequestsCountNothing();
        complete(alice.withHeader("Compat-Project", "alice/p1"), "alice/p1", TestServer.BASE_MODEL, "first", "Hi");
        complete(alice.withHeader("Compat-Project", "alice/p1"), "alice/p1", TestServer.BASE_MODEL, "first",
                "Tell me more about it");
        complete(alice.withHeader("OpenAI-Project", "alice/p2"), "alice/p2", TestServer.OTHER_BASE_MODEL, "first",
                "Hello there");
        complete(aliceOtherKey, "alice/default", TestServer.BASE_MODEL, "other", "Why?");
        stream(aliceOtherKey.withHeader("Compat-Project", "alice/p1"), "alice/p1", TestServer.OTHER_BASE_MODEL,
                "other", "Stream this");
        awaitRequests(alice, Map.of(), made.size());
    }

    private void refusedRequestsCountNothing() {
        Api.Reply malformed = alice.withHeader("Compat-Project", "p1").post("/v1/chat/completions",
                RequestBodies.chat("Hi", "max_tokens", 2));
        assertEquals(400, malformed.status());
        assertEquals("Compat-Project", malformed.error().get("param"));
        Api.Reply otherTeam = alice.withHeader("OpenAI-Project", "mallory/p1").post("/v1/chat/completions",
                RequestBodies.chat("Hi", "max_tokens", 2));
        assertEquals(403, otherTeam.status());
        assertEquals("permission_error", otherTeam.error().get("type"));
        assertEquals("OpenAI-Project", otherTeam.error().get("param"));
        Api.Reply disagreeing = alice.withHeader("Compat-Project", "alice/p1").withHeader("OpenAI-Project", "alice/p2")
                .post("/v1/chat/completions", RequestBodies.chat("Hi", "max_tokens", 2));
        assertEquals(400, disagreeing.status());
        Api.Reply badBody = alice.withHeader("Compat-Project", "alice/p1").post("/v1/chat/completions",
                RequestBodies.chat("Hi", "max_tokens", 2, "temperature", -1));
        assertEquals(400, badBody.status());
    }

    private void complete(Api api, String project, String model, String key, String prompt) {
        Api.Reply reply = api.post("/v1/chat/completions", RequestBodies.chat(prompt, "model", model,
                "max_tokens", 4, "n", 2));
        assertEquals(200, reply.status(), reply.toString());
        Map<?, ?> usage = (Map<?, ?>) reply.json().get("usage");
        made.add(new Made(project, model, key, number(usage.get("prompt_tokens")),
                number(usage.get("completion_tokens"))));
    }

    private void stream(Api api, String project, String model, String key, String prompt) throws Exception {
        Api.Events events = api.stream("/v1/chat/completions", RequestBodies.chat(prompt, "model", model,
                "max_tokens", 5, "stream", true, "stream_options", Map.of("include_usage", true)));
        assertEquals(200, events.status());
        String last = events.data().get(events.data().size() - 2).substring("data: ".length());
        Map<?, ?> usage = (Map<?, ?>) JSON.readValue(last, Map.class).get("usage");
        made.add(new Made(project, model, key, number(usage.get("prompt_tokens")),
                number(usage.get("completion_tokens"))));
    }

    @Test
    void bucketsAddUpToTheCompletionsMadeWithUngroupedFieldsNull() {
        List<Map<String, Object>> results = results(alice.get(USAGE + "?start_time=" + start));
        assertEquals(totals(made, m -> "all"), sums(results, r -> "all"));
        for (Map<String, Object> result : results) {
            assertEquals("organization.usage.completions.result", result.get("object"));
            assertEquals(List.of("object", "input_tokens", "output_tokens", "input_cached_tokens", "input_audio_tokens",
                    "output_audio_tokens", "num_model_requests", "project_id", "user_id", "api_key_id", "model",
                    "batch"), List.copyOf(result.keySet()), "every field of OpenAI's result, in its order");
            assertNull(result.get("user_id"));
            assertEquals(0L, number(result.get("input_audio_tokens")));
            assertNull(result.get("project_id"));
            assertNull(result.get("model"));
            assertNull(result.get("api_key_id"));
            assertNull(result.get("batch"));
            assertEquals(0L, number(result.get("input_cached_tokens")));
        }
    }

    @Test
    void groupByProjectSplitsTheSums() {
        List<Map<String, Object>> results = results(alice.get(USAGE + "?start_time=" + start + "&group_by=project_id"));
        assertEquals(totals(made, Made::project), sums(results, r -> (String) r.get("project_id")));
        assertEquals(Set.of("alice/p1", "alice/p2", "alice/default"),
                sums(results, r -> (String) r.get("project_id")).keySet());
    }

    @Test
    void groupByModelAndKeyInBracketsAsOpenAisPythonLibrarySendsThem() {
        List<Map<String, Object>> results = results(alice.get(USAGE + "?start_time=" + start
                + "&group_by[]=model&group_by[]=api_key_id&group_by[]=batch"));
        assertEquals(totals(made, Made::model), sums(results, r -> (String) r.get("model")));
        Set<Object> keys = new HashSet<>();
        for (Map<String, Object> result : results) {
            assertNull(result.get("project_id"));
            assertEquals(false, result.get("batch"));
            keys.add(result.get("api_key_id"));
        }
        assertEquals(2, keys.size(), results.toString());
    }

    @Test
    void filtersSelectProjectsModelsAndKeys() {
        assertEquals(totals(made.stream().filter(m -> m.project().equals("alice/p1")).toList(), m -> "all"),
                sums(results(alice.get(USAGE + "?start_time=" + start + "&project_ids=alice/p1")), r -> "all"));
        assertEquals(totals(made.stream().filter(m -> m.model().equals(TestServer.OTHER_BASE_MODEL)).toList(),
                m -> "all"), sums(results(alice.get(USAGE + "?start_time=" + start + "&models[]="
                + TestServer.OTHER_BASE_MODEL)), r -> "all"));
        // the first key is the one that used project p2
        String firstKeyId = (String) results(alice.get(USAGE + "?start_time=" + start
                + "&group_by=api_key_id&project_ids=alice/p2")).getFirst().get("api_key_id");
        assertEquals(totals(made.stream().filter(m -> m.key().equals("first")).toList(), m -> "all"),
                sums(results(alice.get(USAGE + "?start_time=" + start + "&api_key_ids=" + firstKeyId)), r -> "all"));
        assertTrue(results(alice.get(USAGE + "?start_time=" + start + "&batch=true")).isEmpty(),
                "Crucible has no batch completions");
        assertTrue(results(alice.get(USAGE + "?start_time=" + start + "&models=no-such-model")).isEmpty());
    }

    @Test
    void pagesWalkEveryMinuteBucketOfTheRange() {
        long from = start - 600;
        long to = Instant.now().getEpochSecond() + 60;
        long expectedBuckets = (Math.floorDiv(to - 1, 60) * 60 + 60 - Math.floorDiv(from, 60) * 60) / 60;
        List<Map<String, Object>> buckets = new ArrayList<>();
        String query = USAGE + "?bucket_width=1m&limit=4&start_time=" + from + "&end_time=" + to;
        String page = null;
        int pages = 0;
        do {
            Map<String, Object> body = alice.get(query + (page == null ? "" : "&page=" + page)).json();
            assertEquals("page", body.get("object"));
            List<Map<String, Object>> data = data(body);
            assertTrue(data.size() <= 4);
            buckets.addAll(data);
            page = (String) body.get("next_page");
            assertEquals(page != null, body.get("has_more"));
            pages++;
        } while (page != null && pages < 100);
        assertEquals(expectedBuckets, buckets.size());
        for (int i = 0; i < buckets.size(); i++) {
            Map<String, Object> bucket = buckets.get(i);
            assertEquals("bucket", bucket.get("object"));
            assertEquals(Math.floorDiv(from, 60) * 60 + 60L * i, number(bucket.get("start_time")));
            assertEquals(number(bucket.get("start_time")) + 60, number(bucket.get("end_time")));
        }
        List<Map<String, Object>> results = buckets.stream().flatMap(b -> results(b).stream()).toList();
        assertEquals(totals(made, m -> "all"), sums(results, r -> "all"));
    }

    @Test
    void anotherEntitySeesNoneOfIt() {
        Api.Reply reply = mallory.get(USAGE + "?start_time=" + start + "&project_ids=alice/p1&project_ids=alice/p2");
        assertEquals(200, reply.status());
        assertTrue(results(reply).isEmpty(), reply.toString());
        assertTrue(results(mallory.get(USAGE + "?start_time=" + start + "&group_by=project_id")).isEmpty());
    }

    @Test
    void badParametersAreNamed() {
        assertEquals("start_time", alice.get(USAGE).error().get("param"));
        assertEquals("bucket_width", alice.get(USAGE + "?start_time=0&bucket_width=1w").error().get("param"));
        assertEquals("group_by", alice.get(USAGE + "?start_time=0&group_by=user_id").error().get("param"));
        assertEquals("limit", alice.get(USAGE + "?start_time=0&limit=32").error().get("param"));
        assertEquals("end_time", alice.get(USAGE + "?start_time=10&end_time=5").error().get("param"));
        assertEquals("page", alice.get(USAGE + "?start_time=0&page=xyz").error().get("param"));
        assertEquals(400, alice.get(USAGE + "?start_time=0&page=xyz").status());
    }

    @Test
    void aStreamItsClientCutIsCountedWithWhatWasGenerated() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        String body = JSON.writeValueAsString(RequestBodies.chat("Go on and on", "max_tokens", 2000,
                "ignore_eos", true, "stream", true, "stream_options", Map.of("include_usage", true)));
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.url() + "/v1/chat/completions"))
                .header("Authorization", "Bearer " + carolKey).header("Content-Type", "application/json")
                .header("Compat-Project", "carol/cut").POST(HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, response.statusCode());
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            int chunks = 0;
            while (chunks < 3) {
                String line = lines.readLine();
                assertNotNull(line, "the stream ended before it was cut");
                if (line.startsWith("data: ")) {
                    chunks++;
                }
            }
        }
        client.close();
        List<Map<String, Object>> results = awaitRequests(server.api(carolKey), Map.of("project_ids", "carol/cut"), 1);
        Map<String, Object> only = results.getFirst();
        assertTrue(number(only.get("input_tokens")) > 0, only.toString());
        assertTrue(number(only.get("output_tokens")) >= 1, only.toString());
        assertTrue(number(only.get("output_tokens")) < 2000, "stopped when cut: " + only);
    }

    @Test
    void aBeamSearchIsCountedAsTheUsageItAnswers() throws Exception {
        String key = server.newKey("bea");
        Api.Reply beams = server.api(key).withHeader("Compat-Project", "bea/beams").post("/v1/chat/completions",
                RequestBodies.chat("Search", "use_beam_search", true, "n", 2, "max_tokens", 3));
        assertEquals(200, beams.status(), beams.toString());
        Map<?, ?> answered = (Map<?, ?>) beams.json().get("usage");
        Map<String, Object> only = awaitRequests(server.api(key), Map.of("project_ids", "bea/beams"), 1).getFirst();
        assertEquals(number(answered.get("prompt_tokens")), number(only.get("input_tokens")), only.toString());
        assertEquals(number(answered.get("completion_tokens")), number(only.get("output_tokens")), only.toString());
    }

    @Test
    void promptTokensServedFromThePrefixCacheAreCountedAsCached() throws Exception {
        String key = server.newKey("cora");
        Api cora = server.api(key).withHeader("Compat-Project", "cora/cache");
        String prompt = "A long shared instruction. ".repeat(12);
        long cached = 0;
        long input = 0;
        for (int i = 0; i < 2; i++) {
            Api.Reply reply = cora.post("/v1/chat/completions", RequestBodies.chat(prompt, "max_tokens", 1));
            assertEquals(200, reply.status(), reply.toString());
            Map<?, ?> usage = (Map<?, ?>) reply.json().get("usage");
            input += number(usage.get("prompt_tokens"));
            cached += number(((Map<?, ?>) usage.get("prompt_tokens_details")).get("cached_tokens"));
        }
        assertTrue(cached > 0, "the repeat reused the first prompt's blocks");
        Map<String, Object> only = awaitRequests(server.api(key), Map.of("project_ids", "cora/cache"), 2).getFirst();
        assertEquals(input, number(only.get("input_tokens")), only.toString());
        assertEquals(cached, number(only.get("input_cached_tokens")), only.toString());
    }

    @Test
    void theOfficialSdkAttributesByProjectAndReadsUsageBack() throws Exception {
        String key = server.newKey("rita");
        OpenAIClient inProject = OpenAIOkHttpClient.builder().apiKey(key).project("rita/sdk")
                .baseUrl(server.url() + "/v1").maxRetries(0).build();
        ChatCompletion completion = inProject.chat().completions().create(ChatCompletionCreateParams.builder()
                .model(TestServer.BASE_MODEL).addUserMessage("hello from the sdk").maxCompletionTokens(3).build());
        OpenAIClient otherTeam = OpenAIOkHttpClient.builder().apiKey(key).project("alice/sdk")
                .baseUrl(server.url() + "/v1").maxRetries(0).build();
        assertThrows(PermissionDeniedException.class, () -> otherTeam.chat().completions().create(
                ChatCompletionCreateParams.builder().model(TestServer.BASE_MODEL).addUserMessage("hi").build()));
        awaitRequests(server.api(key), Map.of(), 1);

        OpenAIClient admin = OpenAIOkHttpClient.builder().adminApiKey(key).baseUrl(server.url() + "/v1")
                .maxRetries(0).build();
        UsageCompletionsResponse usage = admin.admin().organization().usage().completions(UsageCompletionsParams
                .builder().startTime(start).bucketWidth(UsageCompletionsParams.BucketWidth._1H)
                .addGroupBy(UsageCompletionsParams.GroupBy.PROJECT_ID).addGroupBy(UsageCompletionsParams.GroupBy.MODEL)
                .addProjectId("rita/sdk").build());
        var results = usage.data().stream().flatMap(d -> d.results().stream())
                .map(r -> r.organizationUsageCompletions().orElseThrow()).toList();
        assertEquals(1, results.size(), usage.toString());
        var only = results.getFirst();
        assertEquals(Optional.of("rita/sdk"), only.projectId());
        assertEquals(Optional.of(TestServer.BASE_MODEL), only.model());
        assertEquals(completion.usage().orElseThrow().promptTokens(), only.inputTokens());
        assertEquals(completion.usage().orElseThrow().completionTokens(), only.outputTokens());
        assertEquals(1, only.numModelRequests());
        assertFalse(usage.hasMore());
    }

    /** Waits (usage is written moments after a completion ends) until the range holds {@code requests}. */
    private List<Map<String, Object>> awaitRequests(Api api, Map<String, String> filter, long requests) {
        StringBuilder query = new StringBuilder(USAGE + "?start_time=" + start);
        filter.forEach((k, v) -> query.append('&').append(k).append('=').append(v));
        List<Map<String, Object>> results = Await.until(() -> results(api.get(query.toString())),
                r -> sum(r, "num_model_requests") >= requests, Duration.ofSeconds(20));
        assertEquals(requests, sum(results, "num_model_requests"), results.toString());
        return results;
    }

    /** The expected sums (input, output, requests) per group of the completions made. */
    private static Map<String, List<Long>> totals(List<Made> completions, Function<Made, String> group) {
        Map<String, List<Long>> out = new HashMap<>();
        for (Made m : completions) {
            out.merge(group.apply(m), List.of(m.input(), m.output(), 1L), UsageIT::add);
        }
        return out;
    }

    /** The answered sums (input, output, requests) per group of the results. */
    private static Map<String, List<Long>> sums(List<Map<String, Object>> results,
            Function<Map<String, Object>, String> group) {
        Map<String, List<Long>> out = new HashMap<>();
        for (Map<String, Object> r : results) {
            out.merge(group.apply(r), List.of(number(r.get("input_tokens")), number(r.get("output_tokens")),
                    number(r.get("num_model_requests"))), UsageIT::add);
        }
        return out;
    }

    private static List<Long> add(List<Long> a, List<Long> b) {
        return List.of(a.get(0) + b.get(0), a.get(1) + b.get(1), a.get(2) + b.get(2));
    }

    private static List<Map<String, Object>> results(Api.Reply reply) {
        assertEquals(200, reply.status(), reply.toString());
        return data(reply.json()).stream().flatMap(b -> results(b).stream()).toList();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> data(Map<String, Object> body) {
        return (List<Map<String, Object>>) body.get("data");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> results(Map<String, Object> bucket) {
        return (List<Map<String, Object>>) bucket.get("results");
    }

    private static long sum(List<Map<String, Object>> results, String field) {
        return results.stream().mapToLong(r -> number(r.get(field))).sum();
    }

    private static long number(Object value) {
        return ((Number) value).longValue();
    }
}
