package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.domain.object.ObjectDigest;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.TestServer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Weave-style objects over HTTP with Basic authentication, as the Weave client sends it. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ObjectsIT {

    private static final String PROJECT = "iris/proj";
    private static final Map<String, Object> SPEC = Map.of("field_schema",
            Map.of("type", "integer", "minimum", 1, "maximum", 5), "unique_among_creators", true);
    /** Python: {@code bytes_digest(json.dumps(SPEC, sort_keys=True).encode())}, as Weave's compute_object_digest. */
    private static final String SPEC_DIGEST = "LAzbhJbwLHjggwDUifdLJqILFV6YYdmjXGzZYhfs4uQ";
    @AutoClose
    private final TestServer server = TestServer.start(Map.of());
    private final Api weave = server.api(null).withBasic(server.newKey("iris"));
    private final Api other = server.api(server.newKey("jack"));

    private static Map<String, Object> obj(String name, Object val, String builtin) {
        Map<String, Object> obj = new HashMap<>();
        obj.put("project_id", PROJECT);
        obj.put("object_id", name);
        obj.put("val", val);
        if (builtin != null) {
            obj.put("builtin_object_class", builtin);
        }
        return Map.of("obj", obj);
    }

    private Map<String, Object> created(String name, Object val, String builtin) {
        Api.Reply reply = weave.post("/obj/create", obj(name, val, builtin));
        assertEquals(200, reply.status(), reply.toString());
        return reply.json();
    }

    /** Creates {@code name} from {@code val} as JSON text, numbers and escapes as written; the new version's digest. */
    private String createdFromText(String name, String val) {
        Api.Reply reply = weave.post("/obj/create", "{\"obj\": {\"project_id\": \"" + PROJECT + "\", \"object_id\": \""
                + name + "\", \"val\": " + val + "}}");
        assertEquals(200, reply.status(), reply.toString());
        return reply.text("digest");
    }

    private Api.Reply read(Api api, String name, String digest) {
        return api.post("/obj/read", Map.of("project_id", PROJECT, "object_id", name, "digest", digest));
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> readObj(String name, String digest) {
        Api.Reply reply = read(weave, name, digest);
        assertEquals(200, reply.status(), reply.toString());
        return (Map<String, Object>) reply.json().get("obj");
    }

    private static int number(Object value) {
        return ((Number) value).intValue();
    }

    @Test
    void createThenReadByDigestLatestAndIndexInWeavesShape() {
        assertEquals(Map.of("digest", SPEC_DIGEST, "object_id", "quality", "version_index", 0),
                created("quality", SPEC, "AnnotationSpec"));
        Map<String, Object> obj = readObj("quality", SPEC_DIGEST);
        assertEquals(PROJECT, obj.get("project_id"));
        assertEquals("quality", obj.get("object_id"));
        assertTrue(((String) obj.get("created_at")).endsWith("Z"), obj.toString());
        assertTrue(obj.containsKey("deleted_at"));
        assertNull(obj.get("deleted_at"));
        assertEquals(SPEC_DIGEST, obj.get("digest"));
        assertEquals(0, number(obj.get("version_index")));
        assertEquals(1, number(obj.get("is_latest")));
        assertEquals("object", obj.get("kind"));
        assertEquals("AnnotationSpec", obj.get("base_object_class"));
        assertEquals(SPEC, obj.get("val"));
        assertTrue(((String) obj.get("svc_user_id")).startsWith("iris:"));
        assertEquals(obj, readObj("quality", "latest"));
        assertEquals(obj, readObj("quality", "v0"));
    }

    @Test
    void creatingTheSameValueAgainIsIdempotentAndAnotherValueIsTheNextVersion() {
        Map<String, Object> first = created("levels", Map.of("a", 1, "b", List.of(true, "x")), null);
        Map<String, Object> again = created("levels", Map.of("b", List.of(true, "x"), "a", 1), null);
        assertEquals(first, again, "key order does not matter");
        assertEquals(404, read(weave, "levels", "v1").status());

        Map<String, Object> second = created("levels", Map.of("a", 2), null);
        assertEquals(1, number(second.get("version_index")));
        assertNotEquals(first.get("digest"), second.get("digest"));
        Map<String, Object> latest = readObj("levels", "latest");
        assertEquals(second.get("digest"), latest.get("digest"));
        assertEquals(1, number(latest.get("is_latest")));
        Map<String, Object> old = readObj("levels", (String) first.get("digest"));
        assertEquals(0, number(old.get("version_index")));
        assertEquals(0, number(old.get("is_latest")));
        assertNull(old.get("base_object_class"));
        assertEquals(Map.of("a", 1, "b", List.of(true, "x")), old.get("val"));
    }

    @Test
    void concurrentCreatesOfOneNameGetDistinctGaplessIndicesAndOneVersionPerValue() {
        List<Map<String, Object>> distinct = IntStream.range(0, 10).parallel()
                .mapToObj(i -> created("busy", Map.of("i", i), null)).toList();
        assertEquals(IntStream.range(0, 10).boxed().collect(Collectors.toSet()),
                distinct.stream().map(r -> number(r.get("version_index"))).collect(Collectors.toSet()));
        Set<Map<String, Object>> same = IntStream.range(0, 6).parallel()
                .mapToObj(i -> created("busy", Map.of("same", true), null)).collect(Collectors.toSet());
        assertEquals(1, same.size(), same.toString());
        assertEquals(10, number(same.iterator().next().get("version_index")));
        assertEquals(404, read(weave, "busy", "v11").status());
    }

    @Test
    void digestsMatchPythonForNumbersAndNonAsciiText() {
        assertEquals("yDYRSce7zIevkei6eZU4VsI8fNT3E9eO0nWK3FeGRcM", createdFromText("numbers",
                "[1.0, 0.1, 1e16, 1e-5, 0.0001, -0.0, 5e-324, 123456789012345678901234567890, 1.5e300, 100.0]"));
        assertEquals("ZqnnDrMMrP2h3V7XJXtzlxSlePDx9Vvx3U31EtTY4EI", createdFromText("text",
                "{\"name\": \"caf\u00e9 \uD83D\uDC4D\", \"\\u00e9\": \"\\u007f\\u0001\\n\\\"\\\\\"}"));
        assertEquals(Map.of("name", "caf\u00e9 \uD83D\uDC4D", "\u00e9", "\u007f\u0001\n\"\\"),
                readObj("text", "v0").get("val"));
        Map<String, Object> nothing = created("nothing", null, null);
        assertEquals("dCNOmKYnSYX12vHzasLXiswzlGT5UHA7jAGYkvmCuQs", nothing.get("digest"));
        Map<String, Object> stored = readObj("nothing", "latest");
        assertTrue(stored.containsKey("val"));
        assertNull(stored.get("val"));
    }

    /** A float past double's range is Python's inf: stored as Weave stores it ({@code Infinity}) and read back. */
    @Test
    void aFloatPastDoublesRangeIsStoredAsInfinityAndReadBack() {
        assertEquals(ObjectDigest.ofText("{\"down\": -Infinity, \"n\": 1, \"up\": Infinity}"),
                createdFromText("huge", "{\"up\": 1e400, \"down\": -1e400, \"n\": 1}"));
        Api.Reply read = read(weave, "huge", "latest");
        assertEquals(200, read.status(), read.toString());
    }

    @Test
    void anotherEntitysProjectIsNotFound() {
        created("private", Map.of("x", 1), null);
        Api.Reply create = other.post("/obj/create", obj("private", Map.of("x", 2), null));
        assertEquals(404, create.status(), create.toString());
        assertEquals("obj.project_id", create.error().get("param"));
        assertEquals(404, read(other, "private", "latest").status());
        assertEquals(0, number(readObj("private", "latest").get("version_index")), "nothing was written");
    }

    @Test
    void aMissingObjectOrVersionIsNotFound() {
        Api.Reply reply = read(weave, "never-created", "latest");
        assertEquals(404, reply.status());
        assertEquals("Obj never-created:latest not found", reply.error().get("message"));
        assertEquals(404, read(weave, "quality", "v99").status());
    }

    static Stream<Arguments> badCreates() {
        Map<String, Object> noVal = new HashMap<>(Map.of("project_id", PROJECT, "object_id", "x"));
        return Stream.of(
                Arguments.of("no obj", Map.of("project_id", PROJECT), "obj"),
                Arguments.of("project not a string",
                        Map.of("obj", Map.of("project_id", 1, "object_id", "x", "val", 1)), "obj.project_id"),
                Arguments.of("project malformed",
                        Map.of("obj", Map.of("project_id", "iris", "object_id", "x", "val", 1)), "obj.project_id"),
                Arguments.of("no object_id", Map.of("obj", Map.of("project_id", PROJECT, "val", 1)), "obj.object_id"),
                Arguments.of("bad object_id",
                        Map.of("obj", Map.of("project_id", PROJECT, "object_id", "a/b", "val", 1)), "obj.object_id"),
                Arguments.of("long object_id", Map.of("obj", Map.of("project_id", PROJECT, "object_id", "a".repeat(129),
                        "val", 1)), "obj.object_id"),
                Arguments.of("no val", Map.of("obj", noVal), "obj.val"),
                Arguments.of("spec not an object", obj("spec", "not-a-spec", "AnnotationSpec"), "obj.val"),
                Arguments.of("spec without field_schema", obj("spec", Map.of("field_schema", 3), "AnnotationSpec"),
                        "obj.val.field_schema"),
                Arguments.of("unknown builtin", obj("spec", SPEC, "Leaderboard"), "obj.builtin_object_class"),
                Arguments.of("builtin not a string", Map.of("obj", Map.of("project_id", PROJECT, "object_id", "x",
                        "val", SPEC, "builtin_object_class", 1)), "obj.builtin_object_class"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badCreates")
    void badCreatesAre400sNamingTheField(String name, Map<String, Object> body, String param) {
        Api.Reply reply = weave.post("/obj/create", body);
        assertEquals(400, reply.status(), reply.toString());
        assertEquals(param, reply.error().get("param"), reply.toString());
        assertEquals(404, read(weave, "spec", "latest").status(), "nothing was written");
    }

    @Test
    void badReadsAre400sNamingTheField() {
        Api.Reply noDigest = weave.post("/obj/read", Map.of("project_id", PROJECT, "object_id", "x"));
        assertEquals(400, noDigest.status());
        assertEquals("digest", noDigest.error().get("param"));
        Api.Reply badProject = weave.post("/obj/read", Map.of("project_id", "a/b/c", "object_id", "x", "digest", "v0"));
        assertEquals(400, badProject.status());
        assertEquals("project_id", badProject.error().get("param"));
        assertEquals(400, weave.post("/obj/read", "{oops").status());
    }

    @Test
    void theOlderSetBaseObjectClassNameIsReadWhenBuiltinObjectClassIsAbsent() {
        Map<String, Object> obj = new HashMap<>(Map.of("project_id", PROJECT, "object_id", "older", "val", SPEC,
                "set_base_object_class", "AnnotationSpec"));
        assertEquals(200, weave.post("/obj/create", Map.of("obj", obj)).status());
        assertEquals("AnnotationSpec", readObj("older", "latest").get("base_object_class"));
    }

    @Test
    void basicAuthenticationWorksOnObjectRoutesAndBearerToo() {
        assertEquals(200, other.post("/obj/create", Map.of("obj", Map.of("project_id", "jack/p", "object_id", "b",
                "val", 1))).status());
        assertEquals(200, other.post("/obj/read", Map.of("project_id", "jack/p", "object_id", "b", "digest", "v0"))
                .status());
        Api wrong = server.api(null).withBasic("nope");
        assertEquals(401, wrong.post("/obj/create", obj("x", 1, null)).status());
        assertEquals(401, server.api(null).post("/obj/read", Map.of("project_id", PROJECT, "object_id", "quality",
                "digest", "latest")).status());
    }

    @Test
    void annotationFeedbackIsCheckedAgainstTheStoredSpec() {
        String digest = (String) created("stars", SPEC, "AnnotationSpec").get("digest");
        for (String version : List.of(digest, "latest", "v0")) {
            String ref = "weave:///" + PROJECT + "/object/stars:" + version;
            assertEquals(200, weave.post("/feedback/create", annotation(ref, 4)).status(), ref);
            Api.Reply mismatch = weave.post("/feedback/create", annotation(ref, 9));
            assertEquals(400, mismatch.status(), ref);
            assertEquals("Feedback payload does not match annotation spec", mismatch.error().get("message"));
        }
        Api.Reply missing = weave.post("/feedback/create", annotation("weave:///" + PROJECT + "/object/stars:v1", 4));
        assertEquals(400, missing.status());
        assertEquals("Annotation ref weave:///" + PROJECT + "/object/stars:v1 not found",
                missing.error().get("message"));
        created("loose", Map.of("field_schema", "int"), null);
        Api.Reply invalid = weave.post("/feedback/create", annotation("weave:///" + PROJECT + "/object/loose:latest", 4,
                "loose"));
        assertEquals(400, invalid.status());
        assertEquals("Annotation ref weave:///" + PROJECT + "/object/loose:latest is not a valid annotation spec",
                invalid.error().get("message"));
    }

    private static Map<String, Object> annotation(String ref, int value) {
        return annotation(ref, value, "stars");
    }

    private static Map<String, Object> annotation(String ref, int value, String name) {
        Map<String, Object> body = new HashMap<>();
        body.put("project_id", PROJECT);
        body.put("weave_ref", "weave:///" + PROJECT + "/call/0190f3a1-1234-7abc-8def-0123456789ab");
        body.put("feedback_type", "wandb.annotation." + name);
        body.put("annotation_ref", ref);
        body.put("payload", Map.of("value", value));
        return body;
    }
}
