package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code tool_choice: "required"} and a named tool choice from a tiny random-weight model: its text is noise, so a
 * parseable call to one of the tools, with arguments that satisfy the tool's parameters, on every seed shows the
 * tool-choice constraint and the reading of its output at work. The server runs as vLLM with
 * {@code --structured-outputs-config.disable_any_whitespace}: with vLLM's default whitespace a random model may write
 * whitespace until {@code max_tokens} (StructuredOutputsIT checks that case).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ForcedToolCallsIT {

    private static final JsonMapper JSON = JsonMapper.createDefault();
    private static final int SEEDS = 20;
    private static final List<String> CITIES = List.of("Oslo", "Paris", "Lima");
    private static final List<Map<String, Object>> TOOLS = List.of(
            tool("get_weather", Map.of("type", "object", "properties", Map.of(
                    "city", Map.of("enum", CITIES),
                    "days", Map.of("type", "integer", "minimum", 1, "maximum", 7)),
                    "required", List.of("city", "days"), "additionalProperties", false)),
            tool("get_time", Map.of("type", "object", "properties", Map.of("utc", Map.of("type", "boolean")),
                    "required", List.of("utc"), "additionalProperties", false)));
    @AutoClose
    private final TestServer server = TestServer.start(Map.of("crucible.structured-outputs.disable-any-whitespace", "true"));
    private final Api api = server.api(server.newKey("frida"));

    private static Map<String, Object> tool(String name, Map<String, Object> parameters) {
        return Map.of("type", "function", "function", Map.of("name", name, "parameters", parameters));
    }

    private static Map<String, Object> named(String name) {
        return Map.of("type", "function", "function", Map.of("name", name));
    }

    private static Map<String, Object> request(Object... pairs) {
        return RequestBodies.with(RequestBodies.chat("What is the weather?", "tools", TOOLS, "max_tokens", 300), pairs);
    }

    private static Map<String, Object> choice(Api.Reply reply) {
        assertEquals(200, reply.status(), reply.toString());
        return reply.firstChoice();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> calls(Map<String, Object> choice) {
        return (List<Map<String, Object>>) ((Map<String, Object>) choice.get("message")).get("tool_calls");
    }

    private static Object parse(String text) {
        try {
            return JSON.readValue(text, Argument.OBJECT_ARGUMENT);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    /** The call is to {@code name} and its arguments parse and satisfy that tool's parameters. */
    @SuppressWarnings("unchecked")
    private static void assertValidCall(String name, String arguments) {
        Map<String, Object> args = assertInstanceOf(Map.class, parse(arguments), arguments);
        switch (name) {
            case "get_weather" -> {
                assertEquals(Map.of("city", 0, "days", 0).keySet(), args.keySet(), arguments);
                assertTrue(CITIES.contains(args.get("city")), arguments);
                int days = assertInstanceOf(Integer.class, args.get("days"), arguments);
                assertTrue(days >= 1 && days <= 7, arguments);
            }
            case "get_time" -> {
                assertEquals(List.of("utc"), List.copyOf(args.keySet()), arguments);
                assertInstanceOf(Boolean.class, args.get("utc"), arguments);
            }
            default -> throw new AssertionError("not one of the tools: " + name);
        }
    }

    @SuppressWarnings("unchecked")
    private static void assertCallShape(Map<String, Object> call) {
        assertTrue(((String) call.get("id")).matches("chatcmpl-tool-[0-9a-f]{32}"), call.toString());
        assertEquals("function", call.get("type"));
    }

    @SuppressWarnings("unchecked")
    @Test
    void aNamedChoiceCallsThatToolWithValidArgumentsOnEverySeed() {
        for (int seed = 0; seed < SEEDS; seed++) {
            Map<String, Object> choice = choice(api.post("/v1/chat/completions", request("seed", seed,
                    "tool_choice", named("get_weather"))));
            assertEquals("stop", choice.get("finish_reason"), "vLLM (and OpenAI) finish a named call with stop");
            assertEquals("", ((Map<String, Object>) choice.get("message")).get("content"));
            List<Map<String, Object>> calls = calls(choice);
            assertEquals(1, calls.size(), choice.toString());
            assertCallShape(calls.getFirst());
            Map<String, Object> function = (Map<String, Object>) calls.getFirst().get("function");
            assertEquals("get_weather", function.get("name"));
            assertValidCall("get_weather", (String) function.get("arguments"));
        }
    }

    @SuppressWarnings("unchecked")
    @Test
    void aRequiredChoiceCallsSomeToolsWithValidArgumentsOnEverySeed() {
        for (int seed = 0; seed < SEEDS; seed++) {
            Map<String, Object> choice = choice(api.post("/v1/chat/completions", request("seed", seed,
                    "tool_choice", "required")));
            assertEquals("tool_calls", choice.get("finish_reason"), choice.toString());
            assertEquals("", ((Map<String, Object>) choice.get("message")).get("content"));
            List<Map<String, Object>> calls = calls(choice);
            assertTrue(!calls.isEmpty(), choice.toString());
            for (Map<String, Object> call : calls) {
                assertCallShape(call);
                Map<String, Object> function = (Map<String, Object>) call.get("function");
                String arguments = (String) function.get("arguments");
                assertValidCall((String) function.get("name"), arguments);
                assertEquals(pythonDumps(parse(arguments)), arguments, "arguments are json.dumps of the parameters");
            }
        }
    }

    @SuppressWarnings("unchecked")
    @Test
    void parallelToolCallsFalseKeepsOneRequiredCall() {
        for (int seed = 0; seed < 5; seed++) {
            Map<String, Object> choice = choice(api.post("/v1/chat/completions", request("seed", seed,
                    "tool_choice", "required", "parallel_tool_calls", false)));
            assertEquals(1, calls(choice).size(), choice.toString());
        }
    }

    @Test
    void aNamedChoiceTogetherWithStructuredOutputsIsRefusedAsVllmRefusesIt() {
        Api.Reply reply = api.post("/v1/chat/completions", request("tool_choice", named("get_time"),
                "response_format", Map.of("type", "json_object")));
        assertEquals(400, reply.status(), reply.toString());
        assertEquals("You can only either use constraints for structured outputs or tools, not both.",
                reply.error().get("message"));
    }

    /** Python's {@code json.dumps} of the flat argument objects used here. */
    private static String pythonDumps(Object value) {
        Map<?, ?> map = (Map<?, ?>) value;
        StringBuilder out = new StringBuilder("{");
        map.forEach((k, v) -> out.append(out.length() > 1 ? ", " : "").append('"').append(k).append("\": ")
                .append(v instanceof String s ? "\"" + s + "\"" : String.valueOf(v)));
        return out.append('}').toString();
    }

    /** The data lines of a streamed request, {@code [DONE]} last. */
    private List<String> stream(Map<String, Object> request) {
        List<String> events = api.stream("/v1/chat/completions", request).data();
        assertEquals("data: [DONE]", events.getLast());
        return events;
    }

    /** Per call index: the name from its first piece and its arguments joined; plus the finish reason. */
    private record Streamed(Map<Integer, String> names, Map<Integer, String> arguments, String finish,
            StringBuilder content) {
    }

    @SuppressWarnings("unchecked")
    private static Streamed collect(List<String> events) throws IOException {
        Streamed out = new Streamed(new TreeMap<>(), new TreeMap<>(), null, new StringBuilder());
        String finish = null;
        for (String event : events.subList(0, events.size() - 1)) {
            Map<String, Object> chunk = JSON.readValue(event.substring(6), Argument.mapOf(String.class, Object.class));
            for (Map<String, Object> c : (List<Map<String, Object>>) chunk.get("choices")) {
                Map<String, Object> delta = (Map<String, Object>) c.get("delta");
                if (delta.get("content") instanceof String s) {
                    out.content().append(s);
                }
                if (delta.get("tool_calls") instanceof List<?> calls) {
                    for (Object piece : calls) {
                        Map<String, Object> call = (Map<String, Object>) piece;
                        int index = (Integer) call.get("index");
                        Map<String, Object> function = (Map<String, Object>) call.get("function");
                        if (call.containsKey("id")) {
                            assertCallShape(call);
                            assertEquals(null, out.names().put(index, (String) function.get("name")),
                                    "one first piece per call");
                        }
                        assertTrue(out.names().containsKey(index), "arguments before the name: " + events);
                        out.arguments().merge(index, (String) function.get("arguments"), String::concat);
                    }
                }
                if (c.get("finish_reason") instanceof String f) {
                    finish = f;
                }
            }
        }
        return new Streamed(out.names(), out.arguments(), finish, out.content());
    }

    @Test
    void streamedNamedAndRequiredCallsAddUpToValidCalls() throws Exception {
        for (int seed = 0; seed < 5; seed++) {
            Streamed named = collect(stream(request("seed", seed, "stream", true,
                    "tool_choice", named("get_time"))));
            assertEquals("stop", named.finish());
            assertEquals(Map.of(0, "get_time"), named.names());
            assertValidCall("get_time", named.arguments().get(0));
            assertEquals("", named.content().toString());

            Streamed required = collect(stream(request("seed", seed, "stream", true, "tool_choice", "required")));
            assertEquals("tool_calls", required.finish());
            assertTrue(!required.names().isEmpty());
            assertEquals(required.names().keySet(), required.arguments().keySet());
            required.names().forEach((i, name) -> assertValidCall(name, required.arguments().get(i)));
            assertEquals("", required.content().toString());
        }
    }

    @SuppressWarnings("unchecked")
    @Test
    void aTrainedModelsForcedCallRolloutStillCarriesTokenIdsAndLogprobs() {
        api.post("/v1/preview/models", RequestBodies.createModel("p", "agent"));
        for (Object choiceValue : List.of("required", named("get_weather"))) {
            Api.Reply reply = api.post("/v1/chat/completions", request("seed", 3, "tool_choice", choiceValue,
                    "model", "wandb-artifact:///frida/p/agent"));
            Map<String, Object> choice = choice(reply);
            assertTrue(!calls(choice).isEmpty(), choice.toString());
            List<?> ids = (List<?>) choice.get("token_ids");
            List<?> logprobs = (List<?>) ((Map<?, ?>) choice.get("logprobs")).get("content");
            assertEquals(ids.size(), logprobs.size(), "every generated token of the call is trainable");
            assertEquals(((Map<?, ?>) reply.json().get("usage")).get("completion_tokens"), ids.size());
        }
    }
}
