package dev.crucible.server.api;

import static dev.crucible.server.support.HostileJson.text;
import static dev.crucible.server.support.HostileJson.value;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Generated metadata and parameters on the stored-completions surface (chat requests with {@code store},
 * {@code metadata} and the shown parameters; the list's filters and paging; the update's body): every answer is a
 * success or a 4xx, never a 5xx.
 */
class StoredCompletionsPropertiesIT {

    private static final String ROUTE = "/v1/chat/completions";
    private static TestServer server;
    private static Api api;
    private static String stored;

    @BeforeContainer
    static void start() {
        server = TestServer.start(Map.of("crucible.runner.enabled", false));
        api = server.api(server.newKey("pat"));
        stored = api.post(ROUTE, RequestBodies.chat("Hi", "store", true, "max_tokens", 1)).text("id");
    }

    @AfterContainer
    static void stop() {
        server.close();
    }

    private static Map<String, Object> metadata(Random random) {
        Map<String, Object> pairs = new LinkedHashMap<>();
        int n = random.nextInt(20);
        for (int i = 0; i < n; i++) {
            pairs.put(random.nextInt(4) == 0 ? text(random, 80) : "k" + i, random.nextInt(3) == 0 ? value(random, 600)
                    : text(random, random.nextInt(4) == 0 ? 600 : 20));
        }
        return pairs;
    }

    private static void never5xx(Api.Reply reply) {
        assertTrue(reply.status() < 500, reply.toString());
    }

    @Property(tries = 40)
    void generatedMetadataAndParametersOnAChatRequestNeverGiveA5xx(@ForAll long seed) {
        Random random = new Random(seed);
        Map<String, Object> body = RequestBodies.chat(text(random, 12), "max_tokens", 1,
                "store", random.nextInt(4) == 0 ? value(random, 600) : true,
                "metadata", random.nextInt(5) == 0 ? value(random, 600) : metadata(random));
        for (String param : List.of("temperature", "top_p", "seed", "stop", "tool_choice", "response_format")) {
            if (random.nextInt(4) == 0) {
                body.put(param, value(random, 600));
            }
        }
        never5xx(api.post(ROUTE, body));
    }

    @Property(tries = 60)
    void generatedListQueriesAndUpdatesNeverGiveA5xx(@ForAll long seed) {
        Random random = new Random(seed);
        StringBuilder query = new StringBuilder("?");
        for (String param : List.of("model", "after", "limit", "order")) {
            if (random.nextBoolean()) {
                query.append(param).append('=').append(encode(text(random, 10))).append('&');
            }
        }
        metadata(random).forEach((key, value) -> query.append(encode("metadata[" + key + "]")).append('=')
                .append(encode(String.valueOf(value))).append('&'));
        never5xx(api.get(ROUTE + query));
        never5xx(api.get(ROUTE + "/" + stored + "/messages" + query));
        never5xx(api.get(ROUTE + "/chatcmpl-" + encode(text(random, 30))));
        Map<String, Object> update = new LinkedHashMap<>();
        update.put("metadata", random.nextInt(5) == 0 ? value(random, 600) : metadata(random));
        never5xx(api.post(ROUTE + "/" + stored, update));
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
