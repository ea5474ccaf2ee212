package dev.crucible.adapters.http.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.adapters.http.body.JsonBodies;
import dev.crucible.application.inference.chat.ChatStreamListener;
import dev.crucible.application.inference.chat.answer.ChatDelta;
import dev.crucible.application.inference.chat.answer.ChatFinish;
import dev.crucible.application.inference.chat.answer.ChatStart;
import dev.crucible.application.inference.chat.answer.ChatUsage;
import dev.crucible.application.inference.chat.ask.ChatRequest;
import io.micronaut.json.JsonMapper;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The warm-up at start writes each warm-up chat as a client's would be written: its SSE chunks and, once it
 * completed, the whole completion's JSON (and reads a chat body, which must parse); a server whose models do not warm
 * up writes nothing.
 */
class ChatWarmUpTest {

    private static final JsonMapper JSON = JsonMapper.createDefault();

    @Test
    void eachWarmUpChatIsWrittenAsChunksAndAsACompletion() {
        ChatWarmUp warmUp = new ChatWarmUp(listeners -> {
            ChatStreamListener listener = listeners.get();
            listener.onStart(new ChatStart("tiny", ChatRequest.of(List.of(Map.of("role", "user", "content", "Hi"))),
                    List.of(1, 2, 3)));
            listener.onDelta(new ChatDelta(0, "Hel", List.of(), List.of(4), List.of(), Optional.empty(),
                    new ChatUsage(3, 1)));
            listener.onDelta(new ChatDelta(0, "lo", List.of(), List.of(5), List.of(),
                    Optional.of(new ChatFinish("length", Optional.empty())), new ChatUsage(3, 2)));
            listener.onComplete(new ChatUsage(3, 2));
            return List.of("tiny");
        }, JsonBodies.roomy(), JSON);
        warmUp.onContextStarted(null);
        // the role chunk, two content chunks, [DONE], then the completion's JSON
        assertEquals(5, warmUp.written());
    }

    @Test
    void nothingIsWrittenWhenNoModelWarmsUp() {
        ChatWarmUp warmUp = new ChatWarmUp(listeners -> List.of(), JsonBodies.roomy(), JSON);
        warmUp.onContextStarted(null);
        assertEquals(0, warmUp.written());
    }
}
