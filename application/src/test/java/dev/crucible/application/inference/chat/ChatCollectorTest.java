package dev.crucible.application.inference.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.inference.chat.answer.ChatChoice;
import dev.crucible.application.inference.chat.answer.ChatCompletion;
import dev.crucible.application.inference.chat.answer.ChatDelta;
import dev.crucible.application.inference.chat.answer.ChatFinish;
import dev.crucible.application.inference.chat.answer.ChatStart;
import dev.crucible.application.inference.chat.answer.ChatToolCall;
import dev.crucible.application.inference.chat.answer.ChatToolCallDelta;
import dev.crucible.application.inference.chat.answer.ChatUsage;
import dev.crucible.application.inference.chat.ask.ChatRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The collector passes every event on and assembles the streamed choices into the completion they add up to. */
class ChatCollectorTest {

    private final List<String> heard = new ArrayList<>();
    private final List<ChatCompletion> collected = new ArrayList<>();
    private final ChatStreamListener next = new ChatStreamListener() {
        @Override
        public void onStart(ChatStart start) {
            heard.add("start");
        }

        @Override
        public void onDelta(ChatDelta delta) {
            heard.add("delta " + delta.index());
        }

        @Override
        public void onComplete(ChatUsage usage) {
            heard.add("complete");
        }

        @Override
        public void onFailure(RuntimeException failure) {
            heard.add("failure");
        }
    };
    private final ChatCollector collector = new ChatCollector(next, collected::add);
    private final ChatStart start = new ChatStart("m", ChatRequest.of(List.of(Map.of("role", "user", "content", "hi"))),
            List.of(1, 2));

    private static ChatDelta text(int index, String content, int token, Optional<ChatFinish> finish) {
        return new ChatDelta(index, content, List.of(), List.of(token), List.of(), finish, new ChatUsage(2, 1));
    }

    @Test
    void assemblesTextToolCallsAndFinishesPerChoiceAfterPassingEachEventOn() {
        collector.onStart(start);
        collector.onDelta(text(1, "Hel", 5, Optional.empty()));
        collector.onDelta(text(0, "", 9, Optional.empty()));
        collector.onDelta(new ChatDelta(0, "", List.of(new ChatToolCallDelta(0, Optional.of("call-1"),
                Optional.of("get"), "{\"a\":")), List.of(7), List.of(), Optional.empty(), new ChatUsage(2, 2)));
        collector.onDelta(new ChatDelta(0, "", List.of(new ChatToolCallDelta(0, Optional.empty(), Optional.empty(),
                "1}")), List.of(8), List.of(), Optional.of(new ChatFinish("tool_calls", Optional.empty())),
                new ChatUsage(2, 3)));
        collector.onDelta(text(1, "lo", 6, Optional.of(new ChatFinish("stop", Optional.empty()))));
        collector.onComplete(new ChatUsage(2, 5, 0));

        assertEquals(List.of("start", "delta 1", "delta 0", "delta 0", "delta 0", "delta 1", "complete"), heard);
        ChatCompletion completion = collected.getFirst();
        assertEquals(start, completion.start());
        assertEquals(new ChatUsage(2, 5, 0), completion.usage());
        ChatChoice tool = completion.choices().get(0);
        assertEquals(Optional.empty(), tool.content(), "tool calls and no text: no content");
        assertEquals(List.of(new ChatToolCall("call-1", "get", "{\"a\":1}")), tool.toolCalls());
        assertEquals("tool_calls", tool.finish().reason());
        assertEquals(List.of(9, 7, 8), tool.tokenIds());
        ChatChoice said = completion.choices().get(1);
        assertEquals(1, said.index());
        assertEquals(Optional.of("Hello"), said.content());
        assertEquals("stop", said.finish().reason());
    }

    @Test
    void aFailedStreamHandsNothing() {
        collector.onStart(start);
        collector.onDelta(text(0, "a", 1, Optional.empty()));
        collector.onFailure(new IllegalStateException("engine"));
        assertEquals(List.of("start", "delta 0", "failure"), heard);
        assertTrue(collected.isEmpty());
    }
}
