package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * U+0000 and lone surrogates, which PostgreSQL cannot store, inside a JSON string (a value or a key) on every route
 * whose body is stored: a 400 in the envelope that names where the string is, and nothing written. Before, each of
 * these reached PostgreSQL and answered 500.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UnstorableTextIT {

    private static final List<String> BAD = List.of("\\u0000", "a\\u0000b", "\\ud800", "x\\udc00y");
    @AutoClose
    private final TestServer server = TestServer.start(Map.of());
    private final String key = server.newKey("nora");
    private final Api api = server.api(key);
    private final Api weave = server.api(null).withBasic(key);
    private final String model = api.post("/v1/preview/models", RequestBodies.createModel("p", "m")).text("id");

    private List<Map.Entry<Api, String>> storedRoutes() {
        return List.of(Map.entry(api, "/v1/preview/models"), Map.entry(api, "/v1/preview/training-jobs"),
                Map.entry(api, "/v1/preview/sft-training-jobs"), Map.entry(api, "/v1/preview/models/" + model + "/log"),
                Map.entry(api, "/obj/create"), Map.entry(api, "/obj/read"), Map.entry(weave, "/feedback/create"),
                Map.entry(weave, "/feedback/replace"), Map.entry(weave, "/feedback/query"),
                Map.entry(weave, "/feedback/purge"));
    }

    @Test
    void aValueOrKeyPostgresCannotStoreIsA400NamingWhereItIs() {
        for (Map.Entry<Api, String> route : storedRoutes()) {
            for (String bad : BAD) {
                Api.Reply inValue = route.getKey().post(route.getValue(),
                        "{\"project\": \"p\", \"nested\": {\"list\": [1, \"" + bad + "\"]}}");
                assertEquals(400, inValue.status(), route.getValue() + " " + bad + ": " + inValue);
                assertEquals("nested.list[1]", inValue.error().get("param"), inValue.toString());
                assertTrue(((String) inValue.error().get("message")).startsWith("nested.list[1] contains "));

                Api.Reply inKey = route.getKey().post(route.getValue(), "{\"k" + bad + "\": 1}");
                assertEquals(400, inKey.status(), route.getValue() + " key " + bad + ": " + inKey);
            }
        }
    }

    @Test
    void aRefusedModelIsNotCreated() {
        Api.Reply refused = api.post("/v1/preview/models",
                "{\"entity\": null, \"project\": \"p\", \"name\": \"nul\\u0000name\", \"base_model\": \"crucible-tiny\"}");
        assertEquals(400, refused.status(), refused.toString());
        assertEquals("name", refused.error().get("param"));
        assertTrue(api.get("/v1/models").data().stream().noneMatch(m -> String.valueOf(m.get("id")).contains("nul")));
    }

    @Test
    void feedbackWithPairedSurrogatesAndControlCharactersRoundTrips() {
        Api.Reply created = weave.post("/feedback/create", "{\"project_id\": \"nora/p\", "
                + "\"weave_ref\": \"weave:///nora/p/object/o:abc\", \"feedback_type\": \"custom\", "
                + "\"payload\": {\"text\": \"tab\\t bell\\u0007 emoji \\ud83d\\ude00\"}}");
        assertEquals(200, created.status(), created.toString());
        assertEquals(Map.of("text", "tab\t bell\u0007 emoji \ud83d\ude00"), created.json().get("payload"));
    }

    @Test
    void aChatMessageWithANulIsNeverA5xx() {
        Api.Reply reply = api.post("/v1/chat/completions", "{\"model\": \"" + TestServer.BASE_MODEL
                + "\", \"max_tokens\": 2, \"messages\": [{\"role\": \"user\", \"content\": \"a\\u0000b\"}]}");
        assertTrue(reply.status() < 500, reply.toString());
    }
}
