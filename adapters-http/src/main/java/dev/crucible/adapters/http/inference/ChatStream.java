package dev.crucible.adapters.http.inference;

import dev.crucible.application.inference.chat.ChatRequest;
import dev.crucible.runtime.generation.GenerationDelta;
import dev.crucible.runtime.generation.GenerationListener;
import dev.crucible.runtime.generation.GenerationResult;
import dev.crucible.runtime.tools.ToolCallStream;
import dev.crucible.runtime.tools.ToolCalling;
import dev.crucible.runtime.tools.ToolStreamDelta;
import io.micronaut.http.sse.Event;
import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import reactor.core.publisher.FluxSink;

/**
 * Turns generation progress into vLLM's SSE chunks: a first chunk per choice with the assistant role, one chunk per
 * delta, the finish on each choice's last chunk, a usage chunk when asked, then {@code [DONE]}. With tool calling,
 * each choice's text goes through its own tool-call stream: content deltas and tool-call deltas (vLLM's
 * {@code delta.tool_calls}), and the finish reason is the tool calling's ({@code tool_calls} for a choice that
 * streamed calls under "auto" or "required" and stopped). Called on the generator's thread; only hands events to the
 * sink.
 */
final class ChatStream implements GenerationListener {

    private final FluxSink<Event<String>> sink;
    private final JsonMapper json;
    private final String id;
    private final long created;
    private final String model;
    private final ChatRequest request;
    private final int[] promptIds;
    private final Set<Integer> started = new HashSet<>();
    private final Optional<ToolCalling> toolCalling;
    private final Map<Integer, ToolCallStream> toolStreams = new HashMap<>();
    private int completionTokens;

    ChatStream(FluxSink<Event<String>> sink, JsonMapper json, String id, long created, String model, ChatRequest request,
            int[] promptIds, Optional<ToolCalling> toolCalling) {
        this.toolCalling = toolCalling;
        this.sink = sink;
        this.json = json;
        this.id = id;
        this.created = created;
        this.model = model;
        this.request = request;
        this.promptIds = promptIds;
    }

    @Override
    public void onDelta(GenerationDelta delta) {
        if (started.add(delta.index())) {
            Map<String, Object> first = choice(delta.index(), Map.of("role", "assistant", "content",
                    ChatResponses.echoed(request)), null, null, null);
            Map<String, Object> chunk = chunk(List.of(first));
            if (ChatResponses.returnTokenIds(request) && started.size() == 1) {
                chunk.put("prompt_token_ids", ChatResponses.ints(promptIds));
            }
            send(chunk);
        }
        completionTokens += delta.tokenIds().size();
        boolean last = delta.finish().isPresent();
        if (delta.text().isEmpty() && delta.tokenIds().isEmpty() && !last) {
            return;
        }
        Map<String, Object> message = Map.of("content", delta.text());
        String finish = delta.finish().map(f -> f.reason().wireName()).orElse(null);
        if (toolCalling.isPresent()) {
            ToolCallStream tools = toolStreams.computeIfAbsent(delta.index(), i -> toolCalling.get().stream());
            ToolStreamDelta split = tools.next(delta.text(), last);
            message = toolDelta(split);
            if (delta.finish().isPresent()) {
                finish = toolCalling.get().finishReason(delta.finish().get().reason(), tools.calledTools(), true);
            }
        }
        Map<String, Object> choice = choice(delta.index(), message,
                request.logprobs().logprobs() ? ChatResponses.logprobs(delta.logprobs(), ChatResponses.asIds(request)) : null,
                finish,
                delta.finish().map(ChatResponses::stopReason).orElse(null));
        if (ChatResponses.returnTokenIds(request)) {
            choice.put("token_ids", delta.tokenIds());
        }
        Map<String, Object> chunk = chunk(List.of(choice));
        if (request.streaming().continuousUsageStats()) {
            chunk.put("usage", ChatResponses.usage(promptIds.length, completionTokens));
        }
        send(chunk);
    }

    /** vLLM's delta message: content, or tool-call pieces (with content too when the same step wrote both). */
    private static Map<String, Object> toolDelta(ToolStreamDelta split) {
        if (split.calls().isEmpty()) {
            return Map.of("content", split.content());
        }
        Map<String, Object> message = new LinkedHashMap<>();
        if (!split.content().isEmpty()) {
            message.put("content", split.content());
        }
        message.put("tool_calls", split.calls().stream().map(ChatResponses::toolCallDelta).toList());
        return message;
    }

    @Override
    public void onComplete(GenerationResult result) {
        if (request.streaming().includeUsage()) {
            Map<String, Object> chunk = chunk(List.of());
            chunk.put("usage", ChatResponses.usage(result.promptTokens(), result.completionTokens()));
            send(chunk);
        }
        sink.next(Event.of("[DONE]"));
        sink.complete();
    }

    @Override
    public void onFailure(RuntimeException failure) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("message", "Internal server error");
        error.put("type", "InternalServerError");
        error.put("param", null);
        error.put("code", 500);
        send(Map.of("error", error));
        sink.next(Event.of("[DONE]"));
        sink.complete();
    }

    private Map<String, Object> choice(int index, Map<String, Object> delta, Object logprobs, String finish, Object stop) {
        Map<String, Object> choice = new LinkedHashMap<>();
        choice.put("index", index);
        choice.put("delta", delta);
        choice.put("logprobs", logprobs);
        choice.put("finish_reason", finish);
        choice.put("stop_reason", stop);
        return choice;
    }

    private Map<String, Object> chunk(List<Map<String, Object>> choices) {
        Map<String, Object> chunk = new LinkedHashMap<>();
        chunk.put("id", id);
        chunk.put("object", "chat.completion.chunk");
        chunk.put("created", created);
        chunk.put("model", model);
        chunk.put("choices", new ArrayList<>(choices));
        return chunk;
    }

    private void send(Map<String, Object> body) {
        try {
            sink.next(Event.of(json.writeValueAsString(body)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
