package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Annotation specs are tenants' programs: their patterns run in linear time, what needs backtracking or is too large
 * is refused when the spec is stored, and checking a value is bounded.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AnnotationSpecPatternIT {

    private static final String PROJECT = "mona/proj";
    @AutoClose
    private final TestServer server = TestServer.start(Map.of("crucible.runner.enabled", false,
            "crucible.feedback.max-spec-check-work", 200_000));
    private final Api weave = server.api(null).withBasic(server.newKey("mona"));

    private Api.Reply spec(String name, Map<String, Object> fieldSchema) {
        return weave.post("/obj/create", Map.of("obj", Map.of("project_id", PROJECT, "object_id", name,
                "val", Map.of("field_schema", fieldSchema), "builtin_object_class", "AnnotationSpec")));
    }

    private Api.Reply annotate(String name, Object value) {
        return weave.post("/feedback/create", RequestBodies.annotation(PROJECT, name, value));
    }

    @Test
    void theBacktrackingPatternIsCheckedInLinearTime() {
        Api.Reply stored = spec("tag", Map.of("type", "string", "pattern", "^a*a*a*a*b"));
        assertEquals(200, stored.status(), stored.toString());
        // java.util.regex took 1.6 s for 240 characters, and grows as the fourth power of the length
        Api.Reply refused = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> annotate("tag", "a".repeat(2_000)));
        refused.assertRefused(400, "payload", "does not match");
        assertEquals(200, annotate("tag", "a".repeat(2_000) + "b").status());
    }

    @Test
    void aPatternThatNeedsBacktrackingIsRefusedWhenTheSpecIsStored() {
        Api.Reply reply = spec("twice", Map.of("type", "object", "properties",
                Map.of("word", Map.of("type", "string", "pattern", "^(\\w+) \\1$"))));
        reply.assertRefused(400, "obj.val.field_schema.properties.word.pattern", "backreference");
        Api.Reply lookahead = spec("ahead", Map.of("type", "string", "pattern", "^(?=a)"));
        assertEquals("obj.val.field_schema.pattern", lookahead.error().get("param"), lookahead.toString());
    }

    @Test
    void aPatternLargeAfterExpandingItsRepeatsIsRefusedNamingTheSetting() {
        Api.Reply reply = spec("huge", Map.of("type", "string", "pattern", "(a{1000}){200}"));
        reply.assertRefused(400, "obj.val.field_schema.pattern", "crucible.feedback.max-pattern-size");
    }

    @Test
    void aSchemaNestedTooDeepIsRefusedNamingTheSetting() {
        Map<String, Object> schema = Map.of("type", "string");
        for (int i = 0; i < 40; i++) {
            schema = Map.of("items", schema);
        }
        Api.Reply reply = spec("deep", schema);
        reply.assertRefused(400, "obj.val.field_schema", "crucible.feedback.max-spec-schema-depth");
    }

    @Test
    void checkingAValuePastTheWorkBoundIsRefusedNamingPayloadAndTheSetting() {
        assertEquals(200, spec("long", Map.of("type", "string", "pattern", "[a-z]{1,500}b")).status());
        Api.Reply reply = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> annotate("long", "a".repeat(10_000)));
        reply.assertRefused(400, "payload", "crucible.feedback.max-spec-check-work");
    }
}
