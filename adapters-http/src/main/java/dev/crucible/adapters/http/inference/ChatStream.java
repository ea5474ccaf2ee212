package dev.crucible.adapters.http.inference;

import dev.crucible.adapters.http.error.ErrorStatus;
import dev.crucible.application.inference.chat.ask.ChatRequest;
import dev.crucible.application.inference.chat.answer.ChatDelta;
import dev.crucible.application.inference.chat.answer.ChatStart;
import dev.crucible.application.inference.chat.ChatStreamListener;
import dev.crucible.application.inference.chat.answer.ChatUsage;
import dev.crucible.adapters.http.error.ErrorEnvelope;
import dev.crucible.adapters.http.error.ErrorStatus;
import dev.crucible.kernel.refusal.RefusalException;
import io.micronaut.http.sse.Event;
import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import reactor.core.publisher.Sinks;

/**
 * Writes the use case's stream events as vLLM's SSE chunks: a first chunk per choice with the assistant role, one
 * chunk per delta (content, or vLLM's {@code delta.tool_calls} pieces), the finish on each choice's last chunk, a
 * usage chunk when asked, then {@code [DONE]}. With {@code continuous_usage_stats} (only together with
 * {@code include_usage}, as in vLLM) every chunk carries {@code usage}: the prompt and that choice's tokens so far, 0
 * on its first chunk. Called on one thread at a time; only hands events to the sink, which
 * holds them until the response is subscribed and drops them once it is cancelled. What {@link #onStart} keeps is
 * seen by the generator's thread because the use case hands the request to the generator after it.
 */
final class ChatStream implements ChatStreamListener {

    private final Sinks.Many<Event<String>> sink;
    private final JsonMapper json;
    private final String id;
    private final long created;
    private final Set<Integer> started = new HashSet<>();
    private String model;
    private ChatRequest request;
    private List<Integer> promptIds;

    ChatStream(Sinks.Many<Event<String>> sink, JsonMapper json, String id, long created) {
        this.sink = sink;
        this.json = json;
        this.id = id;
        this.created = created;
    }

    @Override
    public void onStart(ChatStart start) {
        this.model = start.model();
        this.request = start.request();
        this.promptIds = start.promptTokenIds();
    }

    @Override
    public void onDelta(ChatDelta delta) {
        if (started.add(delta.index())) {
            Map<String, Object> first = choice(delta.index(), Map.of("role", "assistant", "content",
                    ChatResponses.echoed(request)), null, null, null);
            Map<String, Object> chunk = chunk(List.of(first));
            if (ChatResponses.returnTokenIds(request) && started.size() == 1) {
                chunk.put("prompt_token_ids", promptIds);
            }
            if (continuousUsage()) {
                chunk.put("usage", ChatResponses.usage(new ChatUsage(promptIds.size(), 0)));
            }
            send(chunk);
        }
        if (delta.empty()) {
            return;
        }
        Map<String, Object> choice = choice(delta.index(), message(delta),
                request.logprobs().logprobs() ? ChatResponses.logprobs(delta.logprobs(), ChatResponses.asIds(request)) : null,
                delta.finish().map(f -> f.reason()).orElse(null),
                delta.finish().map(ChatResponses::stopReason).orElse(null));
        if (ChatResponses.returnTokenIds(request)) {
            choice.put("token_ids", delta.tokenIds());
        }
        Map<String, Object> chunk = chunk(List.of(choice));
        if (continuousUsage()) {
            chunk.put("usage", ChatResponses.usage(delta.usage()));
        }
        send(chunk);
    }

    private boolean continuousUsage() {
        return request.streaming().includeUsage() && request.streaming().continuousUsageStats();
    }

    /** vLLM's delta message: content, or tool-call pieces (with content too when the same step wrote both). */
    private static Map<String, Object> message(ChatDelta delta) {
        if (delta.toolCalls().isEmpty()) {
            return Map.of("content", delta.content());
        }
        Map<String, Object> message = new LinkedHashMap<>();
        if (!delta.content().isEmpty()) {
            message.put("content", delta.content());
        }
        message.put("tool_calls", delta.toolCalls().stream().map(ChatResponses::toolCallDelta).toList());
        return message;
    }

    @Override
    public void onComplete(ChatUsage usage) {
        if (request.streaming().includeUsage()) {
            Map<String, Object> chunk = chunk(List.of());
            chunk.put("usage", ChatResponses.usage(usage));
            send(chunk);
        }
        sink.tryEmitNext(Event.of("[DONE]"));
        sink.tryEmitComplete();
    }

    @Override
    public void onFailure(RuntimeException failure) {
        Map<String, Object> error = new LinkedHashMap<>();
        if (failure instanceof RefusalException refused) {
            // the use case's word for the client, as a chunk in the envelope's fields: a 503 when the engine failed,
            // the 4xx it is when the caller's input ended the stream (a grammar past its parse budget)
            int status = ErrorStatus.of(refused.refusal().reason());
            ErrorEnvelope.Detail detail = ErrorEnvelope.of(status, refused.refusal().message(),
                    refused.refusal().param()).error();
            error.put("message", detail.message());
            error.put("type", detail.type());
            error.put("param", detail.param());
            error.put("code", detail.code());
        } else {
            error.put("message", "Internal server error");
            error.put("type", "InternalServerError");
            error.put("param", null);
            error.put("code", 500);
        }
        send(Map.of("error", error));
        sink.tryEmitNext(Event.of("[DONE]"));
        sink.tryEmitComplete();
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
            sink.tryEmitNext(Event.of(json.writeValueAsString(body)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
