package dev.crucible.server.api;

import static dev.crucible.server.support.HostileJson.text;
import static dev.crucible.server.support.HostileJson.value;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.completion.StoredCompletionWriter;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Generated dataset bodies (every field present, absent, of the wrong type or with hostile text; filters, predicates
 * and rewards mixed) and generated ids and pages on the dataset and lineage routes: every answer is a success or a
 * 4xx, never a 5xx.
 */
class DatasetsPropertiesIT {

    private static TestServer server;
    private static Api api;

    @BeforeContainer
    static void start() throws Exception {
        server = TestServer.start(Map.of("crucible.runner.enabled", false, "crucible.datasets.max-rows", 3));
        String key = server.newKey("pat");
        api = server.api(key);
        Api weave = server.api(null).withBasic(key);
        for (int i = 0; i < 4; i++) {
            String id = DatasetsIT.storeOne(api, i % 2 == 0 ? "same" : "other " + i, Map.of("k", "v" + (i % 2)));
            server.bean(StoredCompletionWriter.class).flushed().get();
            weave.post("/feedback/create", RequestBodies.feedback("pat/default", "rating", Map.of("score", i,
                    "value", i % 2 == 0 ? "up" : "down", "nested", Map.of("x", i)),
                    "weave_ref", "weave:///pat/default/call/" + id));
        }
    }

    @AfterContainer
    static void stop() {
        server.close();
    }

    /** A plausible choice most of the time, any value otherwise. */
    private static Object pick(Random random, Object... plausible) {
        return random.nextInt(4) == 0 ? value(random, 300) : plausible[random.nextInt(plausible.length)];
    }

    private static Map<String, Object> body(Random random) {
        Map<String, Object> filter = new LinkedHashMap<>();
        putSome(random, filter, "model", pick(random, TestServer.BASE_MODEL, "other"));
        putSome(random, filter, "metadata", pick(random, Map.of("k", "v0"), Map.of(), Map.of("k", 1)));
        putSome(random, filter, "created_after", pick(random, 0, 1, 4_000_000_000L, -5, 1.5));
        putSome(random, filter, "created_before", pick(random, 0, 2_000_000_000L, 9e18));
        putSome(random, filter, text(random, 5), value(random, 300));
        Map<String, Object> feedback = new LinkedHashMap<>();
        putSome(random, feedback, "type", pick(random, "rating", "thumbs", ""));
        putSome(random, feedback, "payload_path", pick(random, "score", "value", "nested.x", "a..b", ".", ""));
        putSome(random, feedback, "equals", pick(random, "up", 2, true));
        putSome(random, feedback, "min", pick(random, 0, 1.5, -1));
        putSome(random, feedback, "max", pick(random, 3, 0));
        Map<String, Object> body = new HashMap<>();
        putSome(random, body, "name", pick(random, "set", "", "x".repeat(300)));
        putSome(random, body, "project", pick(random, "default", "a/b", "other"));
        putSome(random, body, "kind", pick(random, "sft", "preference", "rl", "dpo"));
        putSome(random, body, "filter", random.nextInt(6) == 0 ? value(random, 300) : filter);
        putSome(random, body, "feedback", random.nextInt(6) == 0 ? value(random, 300) : feedback);
        putSome(random, body, "reward", pick(random, Map.of("model", "rm"), Map.of()));
        return body;
    }

    private static void putSome(Random random, Map<String, Object> map, String key, Object value) {
        if (random.nextInt(5) != 0) {
            map.put(key, value);
        }
    }

    private static void never5xx(Api.Reply reply) {
        assertTrue(reply.status() < 500, reply.toString());
    }

    @Property(tries = 150)
    void generatedDatasetBodiesNeverGiveA5xx(@ForAll long seed) {
        Random random = new Random(seed);
        Api.Reply reply = api.post(DatasetsIT.ROUTE, body(random));
        never5xx(reply);
        if (reply.status() == 200) {
            String id = reply.text("id");
            assertTrue(api.download(DatasetsIT.ROUTE + "/" + id + "/content").status() == 200);
            never5xx(api.delete(DatasetsIT.ROUTE + "/" + id, null));
        }
    }

    @Property(tries = 40)
    void generatedIdsAndPagesNeverGiveA5xx(@ForAll long seed) {
        Random random = new Random(seed);
        String id = encode(random.nextBoolean() ? "dataset-" + text(random, 40) : text(random, 40));
        never5xx(api.get(DatasetsIT.ROUTE + "/" + id));
        assertTrue(api.download(DatasetsIT.ROUTE + "/" + id + "/content").status() < 500);
        never5xx(api.delete(DatasetsIT.ROUTE + "/" + id, null));
        never5xx(api.get(DatasetsIT.ROUTE + "?after=" + id + "&limit=" + encode(text(random, 3)) + "&order="
                + encode(text(random, 4))));
        never5xx(api.get("/v1/preview/models/" + id + "/checkpoints/" + encode(text(random, 6)) + "/lineage"));
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
