package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
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
 * Generated tenants' programs through HTTP against real PostgreSQL: feedback queries of every operator, nested deep
 * and wide, and annotation specs with generated patterns checked against generated values. Every answer comes within
 * 2 s and is a success or a 4xx, never a 5xx.
 */
class FeedbackProgramsPropertiesIT {

    private static final String PROJECT = "nora/proj";
    private static final long MAX_MS = 2_000;
    private static TestServer server;
    private static Api weave;

    @BeforeContainer
    static void start() {
        server = TestServer.start(Map.of("crucible.runner.enabled", false));
        weave = server.api(null).withBasic(server.newKey("nora"));
        for (Object score : List.of(1, 2.5, "3", true)) {
            weave.post("/feedback/create", RequestBodies.feedback(PROJECT, "custom",
                    Map.of("p0", score, "p1", "text " + score)));
        }
    }

    @AfterContainer
    static void stop() {
        server.close();
    }

    private static Api.Reply timed(String path, Object body) {
        long started = System.nanoTime();
        Api.Reply reply = weave.post(path, body);
        long ms = (System.nanoTime() - started) / 1_000_000;
        assertTrue(ms < MAX_MS, path + " took " + ms + " ms");
        assertTrue(reply.status() < 500, reply.toString());
        return reply;
    }

    @Property(tries = 60)
    void everyFeedbackQueryIsAnsweredQuicklyWithoutA5xx(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 70) int depth, @ForAll @IntRange(min = 1, max = 30) int width) {
        Object expr = new RandomQuery(new Random(seed), width).spine(depth);
        timed("/feedback/query", Map.of("project_id", PROJECT, "query", Map.of("$expr", expr)));
    }

    @Property(tries = 60)
    void everyAnnotationSpecPatternIsStoredOrRefusedAndCheckedQuicklyWithoutA5xx(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 6) int depth, @ForAll @IntRange(min = 0, max = 20_000) int length) {
        Random random = new Random(seed);
        String pattern = RandomPattern.of(random, depth);
        String name = "s" + Long.toHexString(seed & 0xffffffL) + depth;
        Api.Reply stored = timed("/obj/create", Map.of("obj", Map.of("project_id", PROJECT, "object_id", name,
                "val", Map.of("field_schema", Map.of("type", "string", "pattern", pattern)),
                "builtin_object_class", "AnnotationSpec")));
        if (stored.status() != 200) {
            return;
        }
        StringBuilder value = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            value.append("ab\n 1".charAt(random.nextInt(random.nextBoolean() ? 1 : 5)));
        }
        timed("/feedback/create", RequestBodies.annotation(PROJECT, name, value.toString()));
    }

    /** Weave's query language as JSON: a spine of random operators, each with random shallow siblings. */
    record RandomQuery(Random random, int width) {

        Object spine(int depth) {
            Object expr = leaf();
            for (int i = 0; i < depth; i++) {
                expr = wrap(expr);
            }
            return expr;
        }

        private Object wrap(Object inner) {
            return switch (random.nextInt(9)) {
                case 0 -> Map.of("$and", with(inner));
                case 1 -> Map.of("$or", with(inner));
                case 2 -> Map.of("$not", List.of(inner));
                case 3 -> Map.of(List.of("$eq", "$gt", "$gte", "$lt", "$lte").get(random.nextInt(5)),
                        random.nextBoolean() ? List.of(inner, leaf()) : List.of(leaf(), inner));
                case 4 -> Map.of("$in", List.of(inner, siblings()));
                case 5 -> Map.of("$in", List.of(leaf(), with(inner)));
                case 6 -> Map.of("$contains", Map.of("input", Map.of("$convert", Map.of("input", inner, "to", "string")),
                        "substr", leaf(), "case_insensitive", random.nextBoolean()));
                default -> Map.of("$convert", Map.of("input", inner,
                        "to", List.of("double", "string", "int", "bool", "exists").get(random.nextInt(5))));
            };
        }

        private List<Object> with(Object inner) {
            List<Object> all = siblings();
            all.add(random.nextInt(all.size() + 1), inner);
            return all;
        }

        private List<Object> siblings() {
            List<Object> list = new ArrayList<>();
            for (int i = random.nextInt(width + 1); i > 0; i--) {
                list.add(leaf());
            }
            return list;
        }

        private Object leaf() {
            Map<String, Object> literal = new HashMap<>();
            return switch (random.nextInt(8)) {
                case 0 -> Map.of("$literal", random.nextInt(-3, 4));
                case 1 -> Map.of("$literal", random.nextDouble() * 10);
                case 2 -> Map.of("$literal", random.nextBoolean());
                case 3 -> {
                    literal.put("$literal", null);
                    yield literal;
                }
                case 4 -> Map.of("$literal", List.of("3", "text 1", "", " 2e3 ", "true").get(random.nextInt(5)));
                case 5 -> Map.of("$getField", List.of("created_at", "feedback_type", "id", "payload").get(random.nextInt(4)));
                default -> Map.of("$getField", "payload.p" + random.nextInt(3));
            };
        }
    }

    /** ECMA-262 patterns from atoms, groups, alternations and quantifiers, hostile ones included. */
    static final class RandomPattern {
        private static final List<String> ATOMS = List.of("a", "b", ".", "\\d", "\\s", "\\S", "[ab]", "[^a]", "\\w",
                "^", "$", "\\b", "\\1", "(?=a)", "(?<!b)", "\\u0061", "[\\s\\S]", "\\k<n>", "(?i)", "(", ")", "\\");

        static String of(Random random, int depth) {
            if (depth == 0 || random.nextInt(4) == 0) {
                return ATOMS.get(random.nextInt(random.nextInt(10) == 0 ? ATOMS.size() : 11));
            }
            StringBuilder out = new StringBuilder();
            int parts = 1 + random.nextInt(3);
            for (int i = 0; i < parts; i++) {
                String part = of(random, depth - 1);
                out.append(switch (random.nextInt(6)) {
                    case 0 -> "(" + part + ")";
                    case 1 -> "(?:" + part + "|" + of(random, depth - 1) + ")";
                    default -> part;
                });
                out.append(switch (random.nextInt(8)) {
                    case 0 -> "*";
                    case 1 -> "+";
                    case 2 -> "?";
                    case 3 -> "{" + random.nextInt(1_100) + "}";
                    case 4 -> "{" + random.nextInt(50) + "," + (50 + random.nextInt(1_000)) + "}";
                    case 5 -> "*?";
                    default -> "";
                });
            }
            return out.toString();
        }
    }
}
