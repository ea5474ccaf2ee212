package dev.crucible.adapters.http.inference;

import dev.crucible.application.inference.chat.ChatCollector;
import dev.crucible.application.inference.chat.WarmUpChatUseCase;
import dev.crucible.adapters.http.body.JsonBody;
import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.RefusalException;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.event.StartupEvent;
import io.micronaut.http.sse.Event;
import io.micronaut.json.JsonMapper;
import io.micronaut.runtime.event.annotation.EventListener;
import jakarta.inject.Singleton;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Sinks;

/**
 * When the context has started, before the HTTP server listens: reads a chat body as the controller does, and runs
 * the warm-up chats ({@link WarmUpChatUseCase}) with this adapter's own writers as their listeners, each chat's
 * events written as SSE chunks by a {@link ChatStream} and, once it completed, as a whole completion's JSON, as the
 * chat controller writes them, into a sink that no client reads. So the first request does not load and interpret
 * the chat path's classes, from the template to the chunk's JSON. Logs which models it warmed and how long it took,
 * nothing of the chats. Off with {@code crucible.inference.warm-up: false}.
 */
@Singleton
@Requires(property = "crucible.inference.warm-up", value = "true")
class ChatWarmUp {

    private static final Logger LOG = LoggerFactory.getLogger(ChatWarmUp.class);

    /** A streamed request with the fields clients commonly send, read as the controller reads a body. */
    private static final byte[] BODY = ("{\"model\":\"m\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
            + "\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"},{\"role\":\"user\",\"content\":\"Hi\"}],"
            + "\"max_tokens\":8,\"temperature\":0.7,\"top_p\":0.9,\"seed\":1,\"stop\":[\"\\n\\n\"],\"logprobs\":true,"
            + "\"top_logprobs\":2,\"store\":false}").getBytes(StandardCharsets.UTF_8);

    private final WarmUpChatUseCase warmUp;
    private final JsonBody body;
    private final JsonMapper json;
    private final AtomicLong chunks = new AtomicLong();

    ChatWarmUp(WarmUpChatUseCase warmUp, JsonBody body, JsonMapper json) {
        this.warmUp = warmUp;
        this.body = body;
        this.json = json;
    }

    @EventListener
    void onContextStarted(StartupEvent event) {
        long start = System.nanoTime();
        List<String> warmed = warmUp.warmUp(this::listener);
        if (!warmed.isEmpty()) {
            // the body's reading too, which needs no model; only where a model warmed up, so tests' servers skip it
            try {
                JsonReader read = body.chatObject(new ByteArrayInputStream(BODY));
                ChatRequestReader.read(read);
                StoreRequest.read(read);
            } catch (RefusalException refused) {
                // body limits set below this small body's size: the warm-up never fails the start
            }
            LOG.info("Warmed up the request path of {} in {} ms", warmed, (System.nanoTime() - start) / 1_000_000);
        }
    }

    /** How many SSE chunks and completions the warm-up chats have written so far. */
    long written() {
        return chunks.get();
    }

    private ChatCollector listener() {
        String id = "chatcmpl-warm-up";
        long created = Instant.now().getEpochSecond();
        Sinks.Many<Event<String>> events = Sinks.many().unicast().onBackpressureBuffer();
        events.asFlux().subscribe(chunk -> chunks.incrementAndGet());
        return new ChatCollector(new ChatStream(events, json, id, created), done -> {
            try {
                json.writeValueAsString(ChatResponses.completion(id, created, done));
                chunks.incrementAndGet();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
