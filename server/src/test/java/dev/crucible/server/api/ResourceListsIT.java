package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** {@code GET /v1/preview/models} and {@code GET /v1/preview/training-jobs}: the entity's own, cursor-paged. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ResourceListsIT {

    private final TestServer server = TestServer.start(Map.of("crucible.runner.enabled", false));
    private final Api owner = server.api(server.newKey("lister"));
    private final Api other = server.api(server.newKey("other-lister"));

    @AfterAll
    void stop() {
        server.close();
    }

    /** Every id of a list, following its cursor {@code limit} at a time. */
    private static List<Object> walk(Api api, String path, int limit, String order) {
        List<Object> ids = new ArrayList<>();
        String after = null;
        do {
            Api.Reply page = api.get(path + "?limit=" + limit + "&order=" + order + (after == null ? "" : "&after=" + after));
            assertEquals(200, page.status(), page.toString());
            page.data().forEach(item -> ids.add(item.get("id")));
            after = Boolean.TRUE.equals(page.json().get("has_more")) ? (String) page.json().get("last_id") : null;
        } while (after != null);
        return ids;
    }

    @Test
    void modelsAndJobsAreListedOnlyToTheirEntityAPageAtATime() {
        List<Object> models = new ArrayList<>();
        List<Object> jobs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String id = owner.post("/v1/preview/models", RequestBodies.createModel("p", "listed-" + i)).text("id");
            models.add(id);
            jobs.add(owner.post("/v1/preview/training-jobs", RequestBodies.rlJob(id)).text("id"));
        }
        String theirs = other.post("/v1/preview/models", RequestBodies.createModel("p", "theirs")).text("id");
        String theirJob = other.post("/v1/preview/training-jobs", RequestBodies.rlJob(theirs)).text("id");

        assertEquals(models, walk(owner, "/v1/preview/models", 2, "asc"));
        assertEquals(jobs, walk(owner, "/v1/preview/training-jobs", 2, "asc"));
        assertEquals(jobs.reversed(), walk(owner, "/v1/preview/training-jobs", 3, "desc"));
        List<Object> theirModels = walk(other, "/v1/preview/models", 10, "asc");
        List<Object> theirJobs = walk(other, "/v1/preview/training-jobs", 10, "asc");
        assertTrue(theirModels.contains(theirs) && theirModels.stream().noneMatch(models::contains), theirModels::toString);
        assertEquals(List.of(theirJob), theirJobs);

        Map<String, Object> first = owner.get("/v1/preview/training-jobs?limit=1").data().getFirst();
        assertEquals("training_job", first.get("object"));
        assertEquals("QUEUED", first.get("status"));
        assertEquals("model", owner.get("/v1/preview/models?limit=1").data().getFirst().get("object"));
    }

    @Test
    void anotherEntitysIdIsNoCursorAndBadParametersNameThemselves() {
        String theirs = other.post("/v1/preview/models", RequestBodies.createModel("p", "cursor")).text("id");
        Api.Reply foreign = owner.get("/v1/preview/models?after=" + theirs);
        assertEquals(400, foreign.status());
        assertEquals("after", foreign.error().get("param"));
        assertFalse(String.valueOf(foreign.error().get("message")).contains("other-lister"));
        for (String query : List.of("limit=0", "limit=x", "order=up", "after=nope")) {
            Api.Reply bad = owner.get("/v1/preview/training-jobs?" + query);
            assertEquals(400, bad.status(), query);
            assertTrue(query.startsWith(String.valueOf(bad.error().get("param"))), query + " " + bad.error());
        }
    }
}
