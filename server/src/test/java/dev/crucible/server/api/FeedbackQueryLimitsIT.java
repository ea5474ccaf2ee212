package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Feedback queries whose SQL would once double per level of nesting: answered at once and right, and a query whose
 * SQL is still too large is a 400 naming {@code query} and the setting.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FeedbackQueryLimitsIT {

    private static final String PROJECT = "lena/proj";
    @AutoClose
    private final TestServer server = TestServer.start(Map.of("crucible.runner.enabled", false,
            "crucible.feedback.max-query-sql-chars", 50_000));
    private final Api weave = server.api(null).withBasic(server.newKey("lena"));

    private String created(Map<String, Object> payload) {
        Api.Reply reply = weave.post("/feedback/create", RequestBodies.feedback(PROJECT, "custom", payload));
        assertEquals(200, reply.status(), reply.toString());
        return reply.text("id");
    }

    private Api.Reply query(Map<String, Object> expr) {
        return weave.post("/feedback/query", Map.of("project_id", PROJECT, "query", Map.of("$expr", expr),
                "fields", List.of("id")));
    }

    /** The request: {@code $in} nested {@code depth} deep, each level's needle the level below. */
    static Map<String, Object> nestedIn(int depth) {
        Map<String, Object> expr = Map.of("$eq", List.of(Map.of("$getField", "payload.score"), Map.of("$literal", 1)));
        for (int i = 0; i < depth; i++) {
            expr = Map.of("$in", List.of(expr, List.of(Map.of("$literal", true), Map.of("$literal", 1))));
        }
        return expr;
    }

    @Test
    void inNested23DeepIsAnsweredAtOnceWithTheRightRows() {
        String one = created(Map.of("score", 1));
        created(Map.of("score", 2));
        Api.Reply reply = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> query(nestedIn(23)));
        assertEquals(200, reply.status(), reply.toString());
        assertEquals(List.of(Map.of("id", one)), reply.json().get("result"));
        // the parser's deepest query too
        Api.Reply deepest = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> query(nestedIn(62)));
        assertEquals(200, deepest.status(), deepest.toString());
        assertEquals(List.of(Map.of("id", one)), deepest.json().get("result"));
    }

    @Test
    void nestedConversionsAreAnsweredAtOnce() {
        String one = created(Map.of("note", "12"));
        Map<String, Object> expr = Map.of("$getField", "payload.note");
        for (int i = 0; i < 30; i++) {
            expr = Map.of("$convert", Map.of("input", Map.of("$convert", Map.of("input", expr, "to", "double")),
                    "to", "string"));
        }
        Map<String, Object> test = Map.of("$eq", List.of(expr, Map.of("$literal", "12")));
        Api.Reply reply = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> query(test));
        assertEquals(200, reply.status(), reply.toString());
        assertTrue(((List<?>) reply.json().get("result")).contains(Map.of("id", one)), reply.toString());
    }

    @Test
    void aQueryWhoseSqlIsTooLargeIsRefusedNamingQueryAndTheSetting() {
        List<Object> terms = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            terms.add(Map.of("$gt", List.of(Map.of("$getField", "payload.score"), Map.of("$literal", i))));
        }
        Api.Reply reply = query(Map.of("$or", terms));
        reply.assertRefused(400, "query", "crucible.feedback.max-query-sql-chars");
    }

    @Test
    void aPayloadValueComparedWithCreatedAtIsComparedAsTextNotA500() {
        String id = created(Map.of("when", "2020-01-01T00:00:00.000000Z"));
        Api.Reply reply = query(Map.of("$eq", List.of(Map.of("$getField", "payload.when"),
                Map.of("$getField", "created_at"))));
        assertEquals(200, reply.status(), reply.toString());
        assertTrue(!((List<?>) reply.json().get("result")).contains(Map.of("id", id)), reply.toString());
        Api.Reply in = query(Map.of("$in", List.of(Map.of("$getField", "created_at"),
                List.of(Map.of("$getField", "payload.when"), Map.of("$literal", "x")))));
        assertEquals(200, in.status(), in.toString());
        Api.Reply earlier = query(Map.of("$lt", List.of(Map.of("$getField", "payload.when"),
                Map.of("$getField", "created_at"))));
        assertEquals(200, earlier.status(), earlier.toString());
        assertTrue(((List<?>) earlier.json().get("result")).contains(Map.of("id", id)), earlier.toString());
    }

    @Test
    void textWithAnExponentNumericCannotHoldIsNotANumberNotA500() {
        String huge = created(Map.of("amount", "1e999999"));
        String small = created(Map.of("amount", " 2.5e2 "));
        Api.Reply reply = query(Map.of("$gt", List.of(Map.of("$convert", Map.of("input",
                Map.of("$getField", "payload.amount"), "to", "double")), Map.of("$literal", 100))));
        assertEquals(200, reply.status(), reply.toString());
        List<?> result = (List<?>) reply.json().get("result");
        assertTrue(result.contains(Map.of("id", small)) && !result.contains(Map.of("id", huge)), reply.toString());
        Api.Reply asText = query(Map.of("$gt", List.of(Map.of("$convert", Map.of("input", Map.of("$convert",
                Map.of("input", Map.of("$getField", "payload.amount"), "to", "string")), "to", "double")),
                Map.of("$literal", 100))));
        assertEquals(200, asText.status(), asText.toString());
    }

    /**
     * A query whose SQL is small but whose run is long (every row of a large project, a condition per row) is stopped
     * at {@code crucible.feedback.query-timeout}: a 400 naming {@code query} and the setting, and the server answers
     * the next query as before.
     */
    @Test
    void aQueryPastItsTimeIsStoppedWithA400NamingTheSetting() throws SQLException {
        try (TestServer slow = TestServer.start(Map.of("crucible.runner.enabled", false,
                "crucible.feedback.query-timeout", "1ms"))) {
            Api api = slow.api(null).withBasic(slow.newKey("mara"));
            try (Connection c = DriverManager.getConnection(slow.databaseUrl(), "postgres", "")) {
                c.createStatement().execute("INSERT INTO feedback (project_id, id, svc_ref, svc_user_id, created_at, "
                        + "feedback_type, payload) SELECT 'mara/big', gen_random_uuid(), 'weave:///mara/big/object/a:b', "
                        + "'mara:x', now(), 'custom', jsonb_build_object('note', 'n' || i, 'score', i) "
                        + "FROM generate_series(1, 200000) i");
            }
            Map<String, Object> expr = Map.of("$contains", Map.of("input", Map.of("$getField", "payload.note"),
                    "substr", Map.of("$literal", "zz"), "case_insensitive", true));
            Api.Reply reply = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> api.post("/feedback/query",
                    Map.of("project_id", "mara/big", "query", Map.of("$expr", expr), "fields", List.of("id"))));
            reply.assertRefused(400, "query", "crucible.feedback.query-timeout");
            // the transaction it ran in was rolled back, not left aborted on a pooled connection: an aborted one would
            // fail every later query on it. Even a trivial query may outlast 1 ms on a busy machine, so each reply is
            // either an answer or the same clean refusal, and at least one is an answer.
            boolean answered = false;
            for (int i = 0; i < 20; i++) {
                Api.Reply small = api.post("/feedback/query", Map.of("project_id", "mara/empty", "query",
                        Map.of("$expr", Map.of("$eq", List.of(Map.of("$literal", 1), Map.of("$literal", 1))))));
                if (small.status() != 200) {
                    small.assertRefused(400, "query", "crucible.feedback.query-timeout");
                }
                answered |= small.status() == 200;
            }
            assertTrue(answered, "no query answered after the stopped one");
        }
    }
}
