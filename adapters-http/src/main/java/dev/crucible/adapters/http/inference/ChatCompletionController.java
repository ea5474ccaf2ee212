package dev.crucible.adapters.http.inference;

import dev.crucible.domain.refusal.RefusalException;
import dev.crucible.adapters.http.body.JsonBody;
import dev.crucible.adapters.http.requestid.RequestIdFilter;
import dev.crucible.application.inference.chat.ChatRequest;
import dev.crucible.application.inference.completion.ChatCompletionService;
import dev.crucible.application.inference.completion.PreparedChat;
import dev.crucible.domain.refusal.Outcome;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.runtime.generation.GenerationHandle;
import dev.crucible.runtime.generation.GenerationListener;
import dev.crucible.runtime.generation.GenerationResult;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.sse.Event;
import io.micronaut.json.JsonMapper;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import java.io.InputStream;
import java.time.Instant;
import java.util.concurrent.CompletionException;
import reactor.core.publisher.Flux;

/**
 * {@code POST /v1/chat/completions} (and its trailing-slash twin): OpenAI/vLLM chat completions, as JSON or, with
 * {@code stream: true}, as server-sent events ending in {@code data: [DONE]}.
 */
@Controller("/v1/chat/completions")
@Secured(SecurityRule.IS_AUTHENTICATED)
final class ChatCompletionController {

    private final JsonBody json;
    private final JsonMapper mapper;
    private final ChatCompletionService chat;

    ChatCompletionController(JsonBody json, JsonMapper mapper, ChatCompletionService chat) {
        this.json = json;
        this.mapper = mapper;
        this.chat = chat;
    }

    @Post(produces = {MediaType.APPLICATION_JSON, MediaType.TEXT_EVENT_STREAM})
    @ExecuteOn(TaskExecutors.BLOCKING)
    HttpResponse<?> create(Caller caller, HttpRequest<?> http, @Nullable @Body InputStream body) {
        PreparedChat prepared = RefusalException.unwrap(chat.prepare(caller, ChatRequestReader.read(json.chatObject(body))));
        // The prepared request is the one to answer: trained models always return trainable logprobs and ids.
        ChatRequest request = prepared.request();
        String id = "chatcmpl-" + request.serving().requestId().orElseGet(() -> RequestIdFilter.of(http));
        long created = Instant.now().getEpochSecond();
        String model = prepared.model().responseName();
        int[] promptIds = prepared.generation().promptTokenIds();
        if (!request.streaming().stream()) {
            GenerationHandle generation = RefusalException.unwrap(chat.stream(prepared, GenerationListener.NONE));
            // A client that goes away stops its generation, as a streaming one does through the sink's cancel.
            Disconnects.cancelOnClose(http, generation);
            GenerationResult result = join(generation);
            return HttpResponse.ok(ChatResponses.completion(id, created, model, request, promptIds, result,
                    prepared.toolCalling()));
        }
        Flux<Event<String>> events = Flux.create(sink -> {
            Outcome<GenerationHandle> handle = chat.stream(prepared,
                    new ChatStream(sink, mapper, id, created, model, request, promptIds, prepared.toolCalling()));
            switch (handle) {
                case Outcome.Done<GenerationHandle> started -> sink.onCancel(started.value()::cancel);
                case Outcome.Refused<GenerationHandle> refused -> sink.error(new RefusalException(refused.refusal()));
            }
        });
        return HttpResponse.ok(events).contentType(MediaType.TEXT_EVENT_STREAM_TYPE);
    }

    /** Waits for the generation; an engine failure is rethrown as it was (a 500). */
    private static GenerationResult join(GenerationHandle generation) {
        try {
            return generation.result().join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }
}
