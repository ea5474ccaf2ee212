package dev.crucible.adapters.http.inference;

import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.adapters.http.body.JsonBody;
import dev.crucible.adapters.http.requestid.RequestIdFilter;
import dev.crucible.adapters.http.usage.ProjectHeader;
import dev.crucible.application.inference.chat.ask.ChatRequest;
import dev.crucible.application.inference.chat.answer.ChatCompletion;
import dev.crucible.application.inference.chat.ChatCompletionUseCase;
import dev.crucible.application.inference.chat.RunningChat;
import dev.crucible.application.completion.KeepCompletionUseCase;
import dev.crucible.application.inference.chat.ChatCollector;
import dev.crucible.application.inference.chat.ChatStreamListener;
import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.usage.UsageProject;
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
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import java.io.InputStream;
import java.time.Instant;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Sinks;

/**
 * {@code POST /v1/chat/completions} (and its trailing-slash twin): OpenAI/vLLM chat completions, as JSON or, with
 * {@code stream: true}, as server-sent events ending in {@code data: [DONE]}. One call to the use case either way;
 * this only reads the body and the project header ({@link ProjectHeader}) and writes the answer. With
 * {@code store: true} ({@link StoreRequest}) the answer, once written (a stream once it completed), is handed to
 * {@link KeepCompletionUseCase}, which queues it and returns at once: storing never delays the answer.
 */
@Controller("/v1/chat/completions")
@Secured(SecurityRule.IS_AUTHENTICATED)
@SecurityRequirement(name = "apiKey")
record ChatCompletionController(JsonBody json, JsonMapper mapper, ChatCompletionUseCase chat,
        KeepCompletionUseCase keep) {

    private static final Logger LOG = LoggerFactory.getLogger(ChatCompletionController.class);

    @RequestBody(required = true,
            content = @Content(schema = @Schema(ref = "#/components/schemas/ChatCompletionRequest")))
    @ApiResponse(responseCode = "200", description = "The completion, or its chunks as server-sent events", content = {
        @Content(schema = @Schema(ref = "#/components/schemas/ChatCompletion")),
        @Content(mediaType = MediaType.TEXT_EVENT_STREAM,
                schema = @Schema(ref = "#/components/schemas/ChatCompletionStream"))})
    @Post(produces = {MediaType.APPLICATION_JSON, MediaType.TEXT_EVENT_STREAM})
    @ExecuteOn(TaskExecutors.BLOCKING)
    HttpResponse<?> create(@Parameter(hidden = true) Caller caller, HttpRequest<?> http,
            @Nullable @Body InputStream body) {
        UsageProject project = RefusalException.unwrap(ProjectHeader.read(caller,
                http.getHeaders().getAll(ProjectHeader.NAME), http.getHeaders().getAll(ProjectHeader.ALIAS)));
        JsonReader read = json.chatObject(body);
        ChatRequest request = ChatRequestReader.read(read);
        StoreRequest storing = StoreRequest.read(read);
        var command = new ChatCompletionUseCase.Command(caller, request, Disconnects.of(http), project);
        String id = "chatcmpl-" + request.serving().requestId().orElseGet(() -> RequestIdFilter.of(http));
        long created = Instant.now().getEpochSecond();
        if (!request.streaming().stream()) {
            ChatCompletion completion = RefusalException.unwrap(chat.complete(command));
            Map<String, Object> answer = ChatResponses.completion(id, created, completion);
            if (storing.store()) {
                keep(storing, project, answer);
            }
            return HttpResponse.ok(answer);
        }
        // Events wait here until Micronaut subscribes; a client that never does is stopped by its closed connection.
        Sinks.Many<Event<String>> events = Sinks.many().unicast().onBackpressureBuffer();
        ChatStreamListener listener = new ChatStream(events, mapper, id, created);
        if (storing.store()) {
            listener = new ChatCollector(listener, done -> keep(storing, project,
                    ChatResponses.completion(id, created, done)));
        }
        RunningChat running = RefusalException.unwrap(chat.stream(command, listener));
        return HttpResponse.ok(events.asFlux().doOnCancel(running::cancel)).contentType(MediaType.TEXT_EVENT_STREAM_TYPE);
    }

    /** Queues the answer for storing; a completion that cannot be kept is logged, never the answer's problem. */
    private void keep(StoreRequest storing, UsageProject project, Map<String, Object> answer) {
        try {
            keep.keep(storing.completion(project, answer));
        } catch (RuntimeException e) {
            LOG.warn("completion {} not stored: {}", answer.get("id"), e.toString());
        }
    }
}
