package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crucible.application.completion.StoredCompletionWriter;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.net.URLEncoder;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Stored completions through HTTP: {@code store: true} keeps a completion (streamed or not) with its messages,
 * choices, usage, metadata and parameters; every route reads it back as OpenAI does; another entity gets 404
 * everywhere; bad metadata and paging parameters are 400s naming the field; feedback names a completion as a call.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StoredCompletionsIT {

    private static final String ROUTE = "/v1/chat/completions";
    private static final ObjectMapper JSON = new ObjectMapper();

    @AutoClose
    private final TestServer server = TestServer.start(Map.of("crucible.runner.enabled", false));
    private final String aliceKey = server.newKey("alice");
    private final Api alice = server.api(aliceKey);
    private final Api mallory = server.api(server.newKey("mallory"));
    private final StoredCompletionWriter writer = server.bean(StoredCompletionWriter.class);

    private Map<String, Object> create(Api api, Object... pairs) {
        Api.Reply reply = api.post(ROUTE, RequestBodies.chat("Hello there", pairs));
        assertEquals(200, reply.status(), reply.toString());
        return reply.json();
    }

    private void flushed() throws Exception {
        writer.flushed().get(30, TimeUnit.SECONDS);
    }

    private static Map<String, String> tag(String... pairs) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            out.put(pairs[i], pairs[i + 1]);
        }
        return out;
    }

    private static List<String> ids(Api.Reply page) {
        assertEquals(200, page.status(), page.toString());
        return page.data().stream().map(d -> (String) d.get("id")).toList();
    }

    @Test
    void aStoredCompletionReadsBackAsAnsweredWithItsMessagesMetadataAndParameters() throws Exception {
        Map<String, Object> answer = create(alice, "store", true, "metadata", tag("run", "a1"), "max_tokens", 4,
                "temperature", 0.0, "seed", 7);
        flushed();
        String id = (String) answer.get("id");
        Api.Reply got = alice.get(ROUTE + "/" + id);
        assertEquals(200, got.status(), got.toString());
        Map<String, Object> stored = got.json();
        assertEquals(id, stored.get("id"));
        assertEquals("chat.completion", stored.get("object"));
        assertEquals(answer.get("created"), stored.get("created"));
        assertEquals(answer.get("model"), stored.get("model"));
        assertEquals(Map.of("run", "a1"), stored.get("metadata"));
        Map<?, ?> choice = (Map<?, ?>) ((List<?>) stored.get("choices")).getFirst();
        Map<?, ?> answered = (Map<?, ?>) ((List<?>) answer.get("choices")).getFirst();
        assertEquals(answered.get("message"), choice.get("message"));
        assertEquals(answered.get("finish_reason"), choice.get("finish_reason"));
        Map<?, ?> usage = (Map<?, ?>) stored.get("usage");
        Map<?, ?> answeredUsage = (Map<?, ?>) answer.get("usage");
        assertEquals(answeredUsage.get("prompt_tokens"), usage.get("prompt_tokens"));
        assertEquals(answeredUsage.get("completion_tokens"), usage.get("completion_tokens"));
        assertEquals(answeredUsage.get("total_tokens"), usage.get("total_tokens"));
        assertEquals(0.0, ((Number) stored.get("temperature")).doubleValue());
        assertEquals(7, stored.get("seed"));
        assertEquals(4, stored.get("max_tokens"));

        Api.Reply messages = alice.get(ROUTE + "/" + id + "/messages");
        assertEquals(200, messages.status(), messages.toString());
        assertEquals("list", messages.json().get("object"));
        assertEquals(List.of(Map.of("id", id + "-0", "role", "user", "content", "Hello there")), messages.data());
        assertEquals(id + "-0", messages.json().get("first_id"));
        assertEquals(false, messages.json().get("has_more"));
    }

    @Test
    void withoutStoreNothingIsKeptButMetadataIsStillChecked() throws Exception {
        String id = (String) create(alice, "metadata", tag("run", "nostore"), "max_tokens", 2).get("id");
        String falsy = (String) create(alice, "store", false, "max_tokens", 2).get("id");
        flushed();
        alice.get(ROUTE + "/" + id).assertRefused(404, "completion_id");
        alice.get(ROUTE + "/" + falsy).assertRefused(404, "completion_id");
        Map<String, Object> seventeen = new HashMap<>();
        for (int i = 0; i < 17; i++) {
            seventeen.put("k" + i, "v");
        }
        alice.post(ROUTE, RequestBodies.chat("Hi", "metadata", seventeen)).assertRefused(400, "metadata");
    }

    @Test
    void aStreamedAnswerIsStoredOnceItCompletes() throws Exception {
        Api.Events events = alice.stream(ROUTE, RequestBodies.chat("Stream me", "store", true, "stream", true,
                "max_tokens", 5, "n", 2, "metadata", tag("kind", "streamed")));
        assertEquals(200, events.status());
        Map<Integer, StringBuilder> text = new HashMap<>();
        String id = null;
        for (String line : events.data()) {
            if (line.equals("data: [DONE]")) {
                continue;
            }
            Map<?, ?> chunk = JSON.readValue(line.substring("data: ".length()), Map.class);
            id = (String) chunk.get("id");
            for (Object c : (List<?>) chunk.get("choices")) {
                Map<?, ?> choice = (Map<?, ?>) c;
                Object content = ((Map<?, ?>) choice.get("delta")).get("content");
                text.computeIfAbsent((Integer) choice.get("index"), i -> new StringBuilder())
                        .append(content == null ? "" : content);
            }
        }
        flushed();
        Map<String, Object> stored = alice.get(ROUTE + "/" + id).json();
        List<?> choices = (List<?>) stored.get("choices");
        assertEquals(2, choices.size());
        for (Object c : choices) {
            Map<?, ?> choice = (Map<?, ?>) c;
            assertEquals(text.get((Integer) choice.get("index")).toString(),
                    ((Map<?, ?>) choice.get("message")).get("content"));
            assertEquals("length", choice.get("finish_reason"));
        }
        assertEquals(10, ((Map<?, ?>) stored.get("usage")).get("completion_tokens"));
        assertEquals(Map.of("kind", "streamed"), stored.get("metadata"));
    }

    @Test
    void theListFiltersByModelAndMetadataAndPagesBothWays() throws Exception {
        Api bob = server.api(server.newKey("bob"));
        List<String> made = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            made.add((String) create(bob, "store", true, "max_tokens", 1, "model",
                    i % 2 == 0 ? TestServer.BASE_MODEL : TestServer.OTHER_BASE_MODEL,
                    "metadata", tag("parity", i % 2 == 0 ? "even" : "odd", "i", String.valueOf(i))).get("id"));
        }
        flushed();
        Api.Reply all = bob.get(ROUTE);
        assertEquals(made, ids(all), "oldest first by default");
        assertEquals(made.getFirst(), all.json().get("first_id"));
        assertEquals(made.getLast(), all.json().get("last_id"));
        assertEquals(false, all.json().get("has_more"));
        assertEquals(List.of(made.get(1), made.get(3)), ids(bob.get(ROUTE + "?model=" + TestServer.OTHER_BASE_MODEL)));
        assertEquals(List.of(made.get(4), made.get(2), made.get(0)),
                ids(bob.get(ROUTE + "?metadata[parity]=even&order=desc")));
        assertEquals(List.of(made.get(2)), ids(bob.get(ROUTE + "?metadata[parity]=even&metadata[i]=2")));
        assertEquals(List.of(made.get(2)), ids(bob.get(ROUTE + "?" + URLEncoder.encode("metadata[i]",
                StandardCharsets.UTF_8) + "=2")), "brackets percent-encoded, as SDKs send them");

        Api.Reply first = bob.get(ROUTE + "?limit=2");
        assertEquals(made.subList(0, 2), ids(first));
        assertEquals(true, first.json().get("has_more"));
        assertEquals(made.subList(2, 4), ids(bob.get(ROUTE + "?limit=2&after=" + made.get(1))));
        Api.Reply last = bob.get(ROUTE + "?limit=2&after=" + made.get(3));
        assertEquals(List.of(made.get(4)), ids(last));
        assertEquals(false, last.json().get("has_more"));
        assertEquals(List.of(made.get(2), made.get(1)), ids(bob.get(ROUTE + "?limit=2&order=desc&after=" + made.get(3))));
        Api.Reply none = bob.get(ROUTE + "?model=nothing");
        assertEquals(List.of(), ids(none));
    }

    @Test
    void badPagingAndFiltersAre400sNamingTheParameter() throws Exception {
        String id = (String) create(alice, "store", true, "max_tokens", 1).get("id");
        flushed();
        alice.get(ROUTE + "?limit=0").assertRefused(400, "limit");
        alice.get(ROUTE + "?limit=101").assertRefused(400, "limit");
        alice.get(ROUTE + "?limit=ten").assertRefused(400, "limit");
        alice.get(ROUTE + "?order=sideways").assertRefused(400, "order");
        alice.get(ROUTE + "?after=chatcmpl-nope").assertRefused(400, "after");
        alice.get(ROUTE + "?model=%00").assertRefused(400, "model");
        alice.get(ROUTE + "?metadata[" + "k".repeat(65) + "]=v").assertRefused(400, "metadata." + "k".repeat(64) + "…");
        alice.get(ROUTE + "?metadata[k]=" + "v".repeat(513)).assertRefused(400, "metadata.k");
        alice.get(ROUTE + "/" + id + "/messages?limit=0").assertRefused(400, "limit");
        alice.get(ROUTE + "/" + id + "/messages?order=up").assertRefused(400, "order");
        alice.get(ROUTE + "/" + id + "/messages?after=" + id + "-7").assertRefused(400, "after");
        alice.get(ROUTE + "/" + id + "/messages?after=other-0").assertRefused(400, "after");
    }

    @Test
    void metadataOnARequestOutOfBoundsIsA400NamingThePair() {
        Map<String, Object> seventeen = new HashMap<>();
        for (int i = 0; i < 17; i++) {
            seventeen.put("k" + i, "v");
        }
        alice.post(ROUTE, RequestBodies.chat("Hi", "store", true, "metadata", seventeen))
                .assertRefused(400, "metadata");
        alice.post(ROUTE, RequestBodies.chat("Hi", "store", true, "metadata", Map.of("k".repeat(65), "v")))
                .assertRefused(400, "metadata." + "k".repeat(64) + "…");
        alice.post(ROUTE, RequestBodies.chat("Hi", "store", true, "metadata", Map.of("k", "v".repeat(513))))
                .assertRefused(400, "metadata.k");
        alice.post(ROUTE, RequestBodies.chat("Hi", "store", true, "metadata", Map.of("k", 1)))
                .assertRefused(400, "metadata.k");
        alice.post(ROUTE, RequestBodies.chat("Hi", "store", true, "metadata", "tag")).assertRefused(400, "metadata");
        alice.post(ROUTE, "{\"model\":\"" + TestServer.BASE_MODEL + "\",\"messages\":[{\"role\":\"user\","
                + "\"content\":\"Hi\"}],\"metadata\":{\"k\":\"a\\u0000b\"}}").assertRefused(400, "metadata.k");
        alice.post(ROUTE, "{\"model\":\"" + TestServer.BASE_MODEL + "\",\"store\":true,\"messages\":[{\"role\":"
                + "\"user\",\"content\":\"a\\u0000b\"}]}").assertRefused(400, "messages[0].content");
        alice.post(ROUTE, RequestBodies.chat("Hi", "store", "perhaps")).assertRefused(400, "store");
    }

    @Test
    void metadataIsReplacedAndACompletionDeleted() throws Exception {
        String id = (String) create(alice, "store", true, "max_tokens", 1, "metadata", tag("a", "1")).get("id");
        flushed();
        Api.Reply updated = alice.post(ROUTE + "/" + id, Map.of("metadata", tag("b", "2", "c", "3")));
        assertEquals(200, updated.status(), updated.toString());
        assertEquals(Map.of("b", "2", "c", "3"), updated.json().get("metadata"));
        assertEquals(id, updated.json().get("id"));
        assertEquals(Map.of("b", "2", "c", "3"), alice.get(ROUTE + "/" + id).json().get("metadata"));
        alice.post(ROUTE + "/" + id, Map.of("metadata", Map.of("k", "v".repeat(513)))).assertRefused(400, "metadata.k");
        alice.post(ROUTE + "/" + id, Map.of("other", 1)).assertRefused(400, "metadata");
        HashMap<String, Object> clear = new HashMap<>();
        clear.put("metadata", null);
        assertEquals(Map.of(), alice.post(ROUTE + "/" + id, clear).json().get("metadata"));

        Api.Reply deleted = alice.delete(ROUTE + "/" + id, null);
        assertEquals(200, deleted.status(), deleted.toString());
        assertEquals(Map.of("object", "chat.completion.deleted", "id", id, "deleted", true, "checkpoints", List.of()),
                deleted.json(), "no checkpoint learned from it");
        alice.get(ROUTE + "/" + id).assertRefused(404, "completion_id");
        alice.delete(ROUTE + "/" + id, null).assertRefused(404, "completion_id");
    }

    @Test
    void anotherEntityGets404Everywhere() throws Exception {
        String id = (String) create(alice, "store", true, "max_tokens", 1).get("id");
        flushed();
        mallory.get(ROUTE + "/" + id).assertRefused(404, "completion_id");
        mallory.get(ROUTE + "/" + id + "/messages").assertRefused(404, "completion_id");
        mallory.post(ROUTE + "/" + id, Map.of("metadata", tag("x", "y"))).assertRefused(404, "completion_id");
        mallory.delete(ROUTE + "/" + id, null).assertRefused(404, "completion_id");
        assertEquals(List.of(), ids(mallory.get(ROUTE)));
        mallory.get(ROUTE + "?after=" + id).assertRefused(400, "after");
        assertEquals(200, alice.get(ROUTE + "/" + id).status(), "still alice's");
        assertTrue(ids(alice.get(ROUTE + "?limit=100")).contains(id));
    }

    @Test
    void feedbackNamesAStoredCompletionAsAWeaveCallAndReadsBack() throws Exception {
        String id = (String) create(alice, "store", true, "max_tokens", 1).get("id");
        flushed();
        Api weave = server.api(null).withBasic(aliceKey);
        String ref = "weave:///alice/default/call/" + id;
        Map<String, Object> draft = RequestBodies.feedback("alice/default", "custom", Map.of("score", 1),
                "weave_ref", ref);
        Api.Reply created = weave.post("/feedback/create", draft);
        assertEquals(200, created.status(), created.toString());
        Api.Reply query = weave.post("/feedback/query", Map.of("project_id", "alice/default", "query",
                Map.of("$expr", Map.of("$eq", List.of(Map.of("$getField", "weave_ref"), Map.of("$literal", ref))))));
        assertEquals(200, query.status(), query.toString());
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rows = (List<Map<String, Object>>) query.json().get("result");
        assertEquals(List.of(ref), rows.stream().map(r -> r.get("svc_ref")).collect(Collectors.toList()));
        assertEquals(Map.of("score", 1), rows.getFirst().get("payload"));
    }

    @Test
    void onceTheWriterSignalsAFlushEveryStoredCompletionIsARowInPostgres() throws Exception {
        Api carol = server.api(server.newKey("carol"));
        List<String> made = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            made.add((String) create(carol, "store", true, "max_tokens", 1).get("id"));
        }
        flushed();
        List<String> rows = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(server.databaseUrl(), "postgres", "");
                PreparedStatement select = connection.prepareStatement(
                        "SELECT id FROM stored_completions WHERE entity = 'carol' ORDER BY seq")) {
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    rows.add(rs.getString(1));
                }
            }
        }
        assertEquals(made, rows, "committed in the order answered, read from another connection");
    }
}
