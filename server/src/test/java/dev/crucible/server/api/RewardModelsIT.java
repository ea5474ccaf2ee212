package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RewardBodies;
import dev.crucible.server.support.TestServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * {@code /v1/reward-models} over HTTP: fit, versions, list, read, score, delete, tenancy and bad input; a server per
 * test, so that each test's lists hold only its own models.
 */
class RewardModelsIT {

    private static final String ROUTE = "/v1/reward-models";
    @AutoClose
    private final TestServer server = TestServer.start(Map.of("crucible.reward.max-examples", 400,
            "crucible.reward.max-score-items", 8, "crucible.reward.max-text-chars", 500));
    private final Api api = server.api(server.newKey("rhea"));
    private final Api other = server.api(server.newKey("sam"));

    private Map<String, Object> created(String name, int count, long seed) {
        Api.Reply reply = api.post(ROUTE, RewardBodies.create(name, count, seed));
        assertEquals(200, reply.status(), reply.toString());
        return reply.json();
    }

    @SuppressWarnings("unchecked")
    private static double metric(Map<String, Object> model, String name) {
        return ((Number) ((Map<String, Object>) model.get("metrics")).get(name)).doubleValue();
    }

    @SuppressWarnings("unchecked")
    private static List<Double> scores(Api.Reply reply) {
        assertEquals(200, reply.status(), reply.toString());
        return ((List<Number>) reply.json().get("scores")).stream().map(Number::doubleValue).toList();
    }

    @Test
    void aFitIsStoredVersionedListedScoredAndDeleted() {
        Map<String, Object> first = created("judge", 200, 1);
        assertEquals("reward_model", first.get("object"));
        assertEquals("judge", first.get("name"));
        assertEquals("proj", first.get("project"));
        assertEquals(1, ((Number) first.get("version")).intValue());
        assertTrue(metric(first, "auc") > 0.9, first.toString());
        assertEquals(160.0, metric(first, "train_size"));
        assertEquals(40.0, metric(first, "test_size"));
        assertTrue(((String) first.get("features")).contains("bigrams"), first.toString());
        assertTrue(((String) first.get("algorithm")).contains("logistic regression"), first.toString());
        Map<String, Object> second = created("judge", 100, 2);
        assertEquals(2, ((Number) second.get("version")).intValue());
        String id = (String) first.get("id");

        assertEquals(first, api.get(ROUTE + "/" + id).json());
        Api.Reply list = api.get(ROUTE + "?limit=1");
        assertEquals(List.of(first), list.data());
        assertEquals(true, list.json().get("has_more"));
        assertEquals(List.of(second), api.get(ROUTE + "?after=" + id).data());

        Random random = new Random(3);
        List<Double> scored = scores(api.post(ROUTE + "/" + id + "/score", Map.of("items", List.of(
                Map.of("prompt", "the river", "answer", RewardBodies.answer(random, true)),
                Map.of("prompt", "the river", "answer", RewardBodies.answer(random, false)),
                Map.of("prompt", "", "answer", "")))));
        assertEquals(3, scored.size());
        assertTrue(scored.get(0) > 0.5 && scored.get(1) < 0.5, scored.toString());
        assertTrue(scored.stream().allMatch(s -> s >= 0 && s <= 1), scored.toString());

        assertEquals(Map.of("id", id, "object", "reward_model", "deleted", true), api.delete(ROUTE + "/" + id, null)
                .json());
        api.get(ROUTE + "/" + id).assertRefused(404, "reward_model_id", id);
        api.post(ROUTE + "/" + id + "/score", Map.of("items", List.of(Map.of("prompt", "p", "answer", "a"))))
                .assertRefused(404, "reward_model_id");
        assertEquals(List.of(second), api.get(ROUTE).data());
    }

    @Test
    void aFitRetriedWithItsIdempotencyKeyIsAnsweredOnceAndFittedOnce() {
        Api keyed = api.withHeader("Idempotency-Key", "fit-1");
        Map<String, Object> first = keyed.post(ROUTE, RewardBodies.create("judge", 30, 10)).json();
        assertEquals(first, keyed.post(ROUTE, RewardBodies.create("judge", 30, 10)).json());
        assertEquals(1, api.get(ROUTE).data().size());
        assertEquals(422, keyed.post(ROUTE, RewardBodies.create("judge", 30, 11)).status(), "another body, same key");
    }

    @Test
    void anotherEntityFindsNothingOnAnyRoute() {
        String id = (String) created("private", 40, 4).get("id");

        other.get(ROUTE + "/" + id).assertRefused(404, "reward_model_id");
        other.post(ROUTE + "/" + id + "/score", Map.of("items", List.of(Map.of("prompt", "p", "answer", "a"))))
                .assertRefused(404, "reward_model_id");
        other.delete(ROUTE + "/" + id, null).assertRefused(404, "reward_model_id");
        assertEquals(List.of(), other.get(ROUTE).data());
        other.get(ROUTE + "?after=" + id).assertRefused(400, "after");
        assertEquals(200, api.get(ROUTE + "/" + id).status(), "still there for its owner");
        server.api(null).get(ROUTE).assertRefused(401, null);
    }

    @Test
    void examplesTooFewOneSidedOrTooManyAreRefusedNamingTheField() {
        api.post(ROUTE, RewardBodies.create("few", 9, 5)).assertRefused(400, "examples", "at least 10 examples");
        List<Map<String, Object>> allGood = new ArrayList<>();
        for (Map<String, Object> example : RewardBodies.examples(30, 6)) {
            Map<String, Object> good = new HashMap<>(example);
            good.put("label", true);
            allGood.add(good);
        }
        api.post(ROUTE, Map.of("name", "one", "project", "proj", "examples", allGood))
                .assertRefused(400, "examples", "both labels");
        List<Map<String, Object>> oneBad = new ArrayList<>(allGood);
        oneBad.set(0, Map.of("prompt", "p", "answer", "a", "label", 0.2));
        api.post(ROUTE, Map.of("name", "one", "project", "proj", "examples", oneBad))
                .assertRefused(400, "examples", "29 true and 1 false");
        api.post(ROUTE, RewardBodies.create("many", 401, 7)).assertRefused(413, "examples",
                "crucible.reward.max-examples");
        assertEquals(List.of(), api.get(ROUTE).data(), "nothing was stored");
    }

    @Test
    void malformedFieldsAreRefusedWhereTheyAre() {
        List<Map<String, Object>> examples = new ArrayList<>(RewardBodies.examples(20, 8));
        api.post(ROUTE, Map.of("project", "proj", "examples", examples)).assertRefused(400, "name");
        api.post(ROUTE, Map.of("name", "n", "examples", examples)).assertRefused(400, "project");
        api.post(ROUTE, Map.of("name", "n", "project", "proj")).assertRefused(400, "examples");
        api.post(ROUTE, Map.of("name", "a/b", "project", "proj", "examples", examples)).assertRefused(400, "name");
        api.post(ROUTE, Map.of("name", "n", "project", "proj", "examples", "many")).assertRefused(400, "examples");
        examples.set(2, Map.of("prompt", "p", "answer", "a", "label", "yes"));
        api.post(ROUTE, Map.of("name", "n", "project", "proj", "examples", examples))
                .assertRefused(400, "examples[2].label", "boolean or a score");
        examples.set(2, Map.of("prompt", "p", "answer", "a", "label", 1.5));
        api.post(ROUTE, Map.of("name", "n", "project", "proj", "examples", examples))
                .assertRefused(400, "examples[2].label");
        examples.set(2, Map.of("prompt", 3, "answer", "a", "label", true));
        api.post(ROUTE, Map.of("name", "n", "project", "proj", "examples", examples))
                .assertRefused(400, "examples[2].prompt");
        examples.set(2, Map.of("prompt", "p", "answer", "x".repeat(501), "label", true));
        api.post(ROUTE, Map.of("name", "n", "project", "proj", "examples", examples))
                .assertRefused(400, "examples[2].answer", "crucible.reward.max-text-chars");
        api.post(ROUTE, "{\"name\": ").assertRefused(400, null);
    }

    @Test
    void scoreRequestsAreBoundedAndChecked() {
        String id = (String) created("bounded", 40, 9).get("id");
        String score = ROUTE + "/" + id + "/score";
        api.post(score, Map.of("items", List.of())).assertRefused(400, "items");
        api.post(score, Map.of()).assertRefused(400, "items");
        api.post(score, Map.of("items", List.of(Map.of("prompt", "p")))).assertRefused(400, "items[0].answer");
        api.post(score, Map.of("items", List.of(Map.of("prompt", "p", "answer", "y".repeat(501)))))
                .assertRefused(400, "items[0].answer");
        api.post(score, Map.of("items", java.util.Collections.nCopies(9, Map.of("prompt", "p", "answer", "a"))))
                .assertRefused(413, "items", "crucible.reward.max-score-items");
        api.get(ROUTE + "/not-an-id").assertRefused(404, "reward_model_id");
        assertEquals(8, scores(api.post(score, Map.of("items",
                java.util.Collections.nCopies(8, Map.of("prompt", "p", "answer", "a"))))).size());
    }
}
