package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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
 * Auto tool choice with the hermes parser, end to end: the Qwen3 test model is scripted (see ScriptedModels) to write
 * a tool call, which comes back as {@code message.tool_calls}, or as streamed tool-call deltas.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ToolCallsIT {

    private static final String CALL = "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n"
            + "</tool_call>";
    private static final List<Map<String, Object>> TOOLS = List.of(Map.of("type", "function", "function",
            Map.of("name", "get_weather", "parameters", Map.of("type", "object"))));
    @AutoClose
    private final TestServer server = TestServer.start(Map.of("test.scripted-model", "true"));
    private final Api api = server.api(server.newKey("tess"));

    private static Map<String, Object> request(String reply, Object... pairs) {
        String content = "[[reply]]" + reply + "[[/reply]]";
        return RequestBodies.with(RequestBodies.chat(content, "tools", TOOLS, "temperature", 0), pairs);
    }

    @SuppressWarnings("unchecked")
    @Test
    void aWrittenToolCallBecomesMessageToolCallsWithFinishReasonToolCalls() {
        Api.Reply reply = api.post("/v1/chat/completions", request(CALL));
        assertEquals(200, reply.status(), reply.toString());
        Map<String, Object> choice = reply.firstChoice();
        assertEquals("tool_calls", choice.get("finish_reason"));
        Map<String, Object> message = (Map<String, Object>) choice.get("message");
        assertNull(message.get("content"), "no text outside the call");
        List<Map<String, Object>> calls = (List<Map<String, Object>>) message.get("tool_calls");
        assertEquals(1, calls.size());
        assertTrue(((String) calls.getFirst().get("id")).matches("chatcmpl-tool-[0-9a-f]{32}"));
        assertEquals("function", calls.getFirst().get("type"));
        assertEquals(Map.of("name", "get_weather", "arguments", "{\"city\": \"Paris\"}"), calls.getFirst().get("function"));
    }

    @SuppressWarnings("unchecked")
    @Test
    void toolChoiceNoneAndMalformedCallsStayPlainContent() {
        Map<String, Object> none = api.post("/v1/chat/completions", request(CALL, "tool_choice", "none")).firstChoice();
        assertEquals(CALL, ((Map<String, Object>) none.get("message")).get("content"));
        assertEquals("stop", none.get("finish_reason"));
        String bad = "Hi <tool_call>{\"name\": \"get_weather\"</tool_call>";
        Map<String, Object> malformed = api.post("/v1/chat/completions", request(bad)).firstChoice();
        assertEquals(bad, ((Map<String, Object>) malformed.get("message")).get("content"));
        assertEquals("stop", malformed.get("finish_reason"));
        assertEquals(List.of(), ((Map<String, Object>) malformed.get("message")).get("tool_calls"));
    }

    @SuppressWarnings("unchecked")
    @Test
    void aTrainedModelsToolCallRolloutStillCarriesTokenIdsAndLogprobs() {
        api.post("/v1/preview/models", RequestBodies.createModel("p", "agent"));
        Api.Reply reply = api.post("/v1/chat/completions", request("Sure. " + CALL, "model",
                "wandb-artifact:///tess/p/agent"));
        assertEquals(200, reply.status(), reply.toString());
        Map<String, Object> choice = reply.firstChoice();
        assertEquals("Sure. ", ((Map<String, Object>) choice.get("message")).get("content"));
        List<?> ids = (List<?>) choice.get("token_ids");
        List<?> logprobs = (List<?>) ((Map<?, ?>) choice.get("logprobs")).get("content");
        assertEquals(ids.size(), logprobs.size(), "every generated token, the call's included, is trainable");
        assertEquals(((Map<?, ?>) reply.json().get("usage")).get("completion_tokens"), ids.size());
    }

    @Test
    void streamingSendsTheNameFirstThenArgumentPiecesAndFinishesWithToolCalls() throws Exception {
        List<String> events = api.stream("/v1/chat/completions", request("Sure. " + CALL, "stream", true)).data();
        assertEquals("data: [DONE]", events.getLast());
        String all = String.join("\n", events);
        assertTrue(all.contains("\"tool_calls\":[{\"index\":0,\"id\":\"chatcmpl-tool-"), all);
        assertTrue(all.contains("\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"\"}"), all);
        assertTrue(all.contains("\"finish_reason\":\"tool_calls\""), all);
        StringBuilder arguments = new StringBuilder();
        StringBuilder content = new StringBuilder();
        var json = server.bean(io.micronaut.json.JsonMapper.class);
        for (String event : events.subList(0, events.size() - 1)) {
            Map<?, ?> chunk = json.readValue(event.substring(6), Map.class);
            for (Object c : (List<?>) chunk.get("choices")) {
                Map<?, ?> delta = (Map<?, ?>) ((Map<?, ?>) c).get("delta");
                if (delta.get("content") instanceof String s) {
                    content.append(s);
                }
                if (delta.get("tool_calls") instanceof List<?> calls) {
                    for (Object call : calls) {
                        arguments.append(((Map<?, ?>) ((Map<?, ?>) call).get("function")).get("arguments"));
                    }
                }
            }
        }
        assertEquals("{\"city\": \"Paris\"}", arguments.toString());
        assertEquals("Sure. ", content.toString());
    }
}
