package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.application.completion.StoredCompletionWriter;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A reward model fitted from a dataset ({@code "dataset"} on {@code POST /v1/reward-models}) on the tiny model's
 * stored completions, rated through the feedback API: five questions with three answers each, rated 0 to 4. A
 * preference dataset gives each pair's two answers as a good and a bad example; an rl dataset labels a trajectory good
 * above the median reward or a given threshold; an sft dataset (one label) is a 400, and another entity's dataset a
 * 404, both naming {@code dataset}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RewardModelFromDatasetIT {

    private static final String ROUTE = "/v1/reward-models";

    private TestServer server;
    private Api alice;
    private Api mallory;

    @BeforeAll
    void seed() throws Exception {
        server = TestServer.start(Map.of());
        String key = server.newKey("alice");
        alice = server.api(key);
        mallory = server.api(server.newKey("mallory"));
        Api weave = server.api(null).withBasic(key);
        for (int question = 0; question < 5; question++) {
            for (int answer = 0; answer < 3; answer++) {
                String id = DatasetsIT.storeOne(alice, "Question " + question, Map.of("run", "fit"));
                Api.Reply rated = weave.post("/feedback/create", RequestBodies.feedback("alice/default", "rating",
                        Map.of("score", (question + answer) % 5), "weave_ref", "weave:///alice/default/call/" + id));
                assertEquals(200, rated.status(), rated.toString());
            }
        }
        server.bean(StoredCompletionWriter.class).flushed().get(30, TimeUnit.SECONDS);
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private String dataset(String kind, Map<String, Object> feedback) {
        Api.Reply made = alice.post(DatasetsIT.ROUTE, Map.of("name", kind + " for a reward model", "kind", kind,
                "filter", Map.of("metadata", Map.of("run", "fit")), "feedback", feedback));
        assertEquals(200, made.status(), made.toString());
        return made.text("id");
    }

    private static Map<String, Object> fit(String dataset, Object... more) {
        Map<String, Object> body = new HashMap<>(Map.of("name", "judge", "project", "proj", "dataset", dataset));
        for (int i = 0; i < more.length; i += 2) {
            body.put((String) more[i], more[i + 1]);
        }
        return body;
    }

    @SuppressWarnings("unchecked")
    private static int examples(Api.Reply fitted) {
        assertEquals(200, fitted.status(), fitted.toString());
        Map<String, Object> metrics = (Map<String, Object>) fitted.json().get("metrics");
        return ((Number) metrics.get("train_size")).intValue() + ((Number) metrics.get("test_size")).intValue();
    }

    @Test
    void aPreferenceDatasetGivesAGoodAndABadExamplePerPair() {
        String pairs = dataset("preference", Map.of("type", "rating", "payload_path", "score"));
        assertEquals(10, examples(alice.post(ROUTE, fit(pairs))), "five pairs, two examples each");
    }

    @Test
    void anRlDatasetIsLabelledAboveItsMedianRewardOrAGivenThreshold() {
        String groups = dataset("rl", Map.of("type", "rating", "payload_path", "score"));
        assertEquals(15, examples(alice.post(ROUTE, fit(groups))));
        assertEquals(15, examples(alice.post(ROUTE, fit(groups, "threshold", 2.5))));
        // above 4 no trajectory is good: one label, which a fit refuses
        alice.post(ROUTE, fit(groups, "threshold", 4)).assertRefused(400, "examples");
    }

    @Test
    void anSftDatasetAnotherEntitysOrBothSourcesAreRefusedNamingTheField() {
        String kept = dataset("sft", Map.of("type", "rating", "payload_path", "score", "min", 3));
        alice.post(ROUTE, fit(kept)).assertRefused(400, "dataset");
        mallory.post(ROUTE, fit(kept)).assertRefused(404, "dataset");
        alice.post(ROUTE, fit("dataset-nothing")).assertRefused(404, "dataset");
        alice.post(ROUTE, fit(kept, "examples", List.of())).assertRefused(400, "examples");
    }
}
