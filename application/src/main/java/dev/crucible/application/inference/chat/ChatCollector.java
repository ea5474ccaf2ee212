package dev.crucible.application.inference.chat;

import dev.crucible.application.inference.chat.answer.ChatChoice;
import dev.crucible.application.inference.chat.answer.ChatCompletion;
import dev.crucible.application.inference.chat.answer.ChatDelta;
import dev.crucible.application.inference.chat.answer.ChatFinish;
import dev.crucible.application.inference.chat.answer.ChatPositionLogprobs;
import dev.crucible.application.inference.chat.answer.ChatStart;
import dev.crucible.application.inference.chat.answer.ChatToolCall;
import dev.crucible.application.inference.chat.answer.ChatUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A stream listener that passes every event on to {@code next} and also assembles the streamed answer into the
 * {@link ChatCompletion} a non-streamed request would have got (text, tool calls, logprobs, finish and usage; no
 * prompt logprobs), handed to {@code onCompleted} after {@code next} heard the end. A failed stream hands nothing.
 * Called on one thread at a time, as every {@link ChatStreamListener} is.
 */
public final class ChatCollector implements ChatStreamListener {

    private final ChatStreamListener next;
    private final Consumer<ChatCompletion> onCompleted;
    private final Map<Integer, Choice> choices = new TreeMap<>();
    private ChatStart start;

    public ChatCollector(ChatStreamListener next, Consumer<ChatCompletion> onCompleted) {
        this.next = Objects.requireNonNull(next, "next");
        this.onCompleted = Objects.requireNonNull(onCompleted, "onCompleted");
    }

    /** One choice so far: its text, tool calls by index, tokens, logprobs and finish. */
    private static final class Choice {
        private final StringBuilder content = new StringBuilder();
        private final Map<Integer, String[]> calls = new TreeMap<>();
        private final List<Integer> tokenIds = new ArrayList<>();
        private final List<ChatPositionLogprobs> logprobs = new ArrayList<>();
        private ChatFinish finish = new ChatFinish("abort", Optional.empty());
        private boolean toolCalled;
    }

    @Override
    public void onStart(ChatStart started) {
        this.start = started;
        next.onStart(started);
    }

    @Override
    public void onDelta(ChatDelta delta) {
        next.onDelta(delta);
        Choice choice = choices.computeIfAbsent(delta.index(), i -> new Choice());
        choice.content.append(delta.content());
        delta.toolCalls().forEach(piece -> {
            choice.toolCalled = true;
            String[] call = choice.calls.computeIfAbsent(piece.index(), i -> new String[] {"", "", ""});
            piece.id().ifPresent(id -> call[0] = id);
            piece.name().ifPresent(name -> call[1] = name);
            call[2] += piece.arguments();
        });
        choice.tokenIds.addAll(delta.tokenIds());
        choice.logprobs.addAll(delta.logprobs());
        delta.finish().ifPresent(f -> choice.finish = f);
    }

    @Override
    public void onComplete(ChatUsage usage) {
        next.onComplete(usage);
        List<ChatChoice> finished = new ArrayList<>();
        choices.forEach((index, c) -> finished.add(new ChatChoice(index,
                c.toolCalled && c.content.isEmpty() ? Optional.empty() : Optional.of(c.content.toString()),
                c.calls.values().stream().map(call -> new ChatToolCall(call[0], call[1], call[2])).toList(),
                c.logprobs, c.finish, c.tokenIds)));
        onCompleted.accept(new ChatCompletion(start, finished, usage, Optional.empty()));
    }

    @Override
    public void onFailure(RuntimeException failure) {
        next.onFailure(failure);
    }
}
