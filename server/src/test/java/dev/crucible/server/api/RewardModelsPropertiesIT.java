package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RewardBodies;
import dev.crucible.server.support.TestServer;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Generated reward-model bodies through HTTP against real PostgreSQL, Tribuo and ONNX Runtime: well-formed bodies
 * broken in a few random places (a value swapped for any JSON value, a field dropped, a label of any type), and
 * bodies of any JSON at all. Every answer is a success or a 4xx, never a 5xx.
 */
class RewardModelsPropertiesIT {

    private static TestServer server;
    private static Api api;
    private static String scored;

    @BeforeContainer
    static void start() {
        server = TestServer.start(Map.of("crucible.reward.max-examples", 60, "crucible.reward.max-text-chars", 300,
                "crucible.reward.max-score-items", 20, "crucible.reward.fits-per-key", 4));
        api = server.api(server.newKey("pia"));
        Api.Reply created = api.post("/v1/reward-models", RewardBodies.create("scored", 30, 1));
        assertEquals(200, created.status(), created.toString());
        scored = created.text("id");
    }

    @AfterContainer
    static void stop() {
        server.close();
    }

    private static void neverA5xx(String path, Object body) {
        Api.Reply reply = api.post(path, body);
        assertTrue(reply.status() < 500, reply.toString());
    }

    @Property(tries = 80)
    void brokenFitBodiesAreFittedOrRefusedNeverA5xx(@ForAll long seed, @ForAll @IntRange(min = 0, max = 70) int count,
            @ForAll @IntRange(min = 0, max = 4) int breaks) {
        Random random = new Random(seed);
        Map<String, Object> body = new HashMap<>(RewardBodies.create("n" + (seed & 0xff), count, seed));
        List<Object> examples = new ArrayList<>((List<?>) body.get("examples"));
        body.put("examples", examples);
        for (int i = 0; i < breaks; i++) {
            breakOne(random, body, examples);
        }
        neverA5xx("/v1/reward-models", body);
    }

    @Property(tries = 80)
    void brokenScoreBodiesAreScoredOrRefusedNeverA5xx(@ForAll long seed, @ForAll @IntRange(min = 0, max = 25) int count,
            @ForAll @IntRange(min = 0, max = 3) int breaks) {
        Random random = new Random(seed);
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            items.add(new HashMap<>(Map.of("prompt", RandomJson.text(random), "answer", RandomJson.text(random))));
        }
        Map<String, Object> body = new HashMap<>(Map.of("items", items));
        for (int i = 0; i < breaks; i++) {
            breakOne(random, body, items);
        }
        String id = random.nextInt(8) == 0 ? URLEncoder.encode("x" + RandomJson.text(random), StandardCharsets.UTF_8)
                : scored;
        neverA5xx("/v1/reward-models/" + id + "/score", body);
    }

    @Property(tries = 40)
    void anyJsonAtAllIsNeverA5xx(@ForAll long seed) {
        Random random = new Random(seed);
        neverA5xx("/v1/reward-models", RandomJson.value(random, 3));
        neverA5xx("/v1/reward-models/" + scored + "/score", RandomJson.value(random, 3));
    }

    /** Breaks the body in one place: a top-level field or an element, replaced by any value, or dropped. */
    @SuppressWarnings("unchecked")
    private static void breakOne(Random random, Map<String, Object> body, List<Object> elements) {
        List<String> keys = new ArrayList<>(body.keySet());
        if (elements.isEmpty() || random.nextInt(3) == 0) {
            String key = keys.isEmpty() ? "name" : keys.get(random.nextInt(keys.size()));
            if (random.nextBoolean()) {
                body.remove(key);
            } else {
                body.put(key, RandomJson.value(random, 2));
            }
            return;
        }
        int at = random.nextInt(elements.size());
        if (!(elements.get(at) instanceof Map<?, ?> element) || random.nextInt(4) == 0) {
            elements.set(at, RandomJson.value(random, 2));
            return;
        }
        Map<String, Object> broken = new HashMap<>((Map<String, Object>) element);
        List<String> fields = new ArrayList<>(broken.keySet());
        String field = fields.isEmpty() ? "label" : fields.get(random.nextInt(fields.size()));
        if (random.nextBoolean()) {
            broken.remove(field);
        } else {
            broken.put(field, RandomJson.value(random, 1));
        }
        elements.set(at, broken);
    }

    /** Any JSON value: null, booleans, numbers of every kind, strings (long and odd ones), arrays, objects. */
    private static final class RandomJson {

        static Object value(Random random, int depth) {
            int kind = random.nextInt(depth > 0 ? 8 : 6);
            return switch (kind) {
                case 0 -> null;
                case 1 -> random.nextBoolean();
                case 2 -> random.nextInt(5) - 2;
                case 3 -> List.of(-1e308, 0.5, 1e-9, 2.0, Double.MAX_VALUE).get(random.nextInt(5));
                case 4, 5 -> text(random);
                case 6 -> {
                    List<Object> list = new ArrayList<>();
                    for (int i = random.nextInt(4); i > 0; i--) {
                        list.add(value(random, depth - 1));
                    }
                    yield list;
                }
                default -> {
                    Map<String, Object> map = new HashMap<>();
                    for (String key : List.of("name", "project", "examples", "items", "prompt", "answer", "label")) {
                        if (random.nextInt(3) == 0) {
                            map.put(key, value(random, depth - 1));
                        }
                    }
                    yield map;
                }
            };
        }

        static String text(Random random) {
            return switch (random.nextInt(5)) {
                case 0 -> "";
                case 1 -> "x".repeat(290 + random.nextInt(20));
                case 2 -> "\u00e9\u4e2d \ud83d\ude00 tab\there";
                case 3 -> " ";
                default -> "word " + random.nextInt(100) + " correct";
            };
        }
    }
}
