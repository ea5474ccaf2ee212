package dev.crucible.application.inference.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.runtime.generation.GenerationDelta;
import dev.crucible.runtime.generation.GenerationListener;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A failed generation, as its client hears it: the request's own refusal as it is, anything else a bare 503. */
class ChatFailuresTest {

    @Test
    void aRefusalTheRequestCausedStaysAsItIs() {
        RefusalException refused = RefusalException.invalid("response_format", "too deep");

        assertSame(refused, ChatFailures.of("m", refused));
    }

    @Test
    void anyOtherFailureIsNotReadyWithARetryHintAndSaysNothingOfItself() {
        RuntimeException engine = new IllegalStateException("CUDA out of memory at 0x7f00 in /opt/secret/lib.so");

        Refusal heard = ChatFailures.logged("tiny", engine).refusal();

        assertEquals(Refusal.Reason.NOT_READY, heard.reason());
        assertEquals(ChatFailures.RETRY, heard.retryAfter().orElseThrow());
        assertTrue(heard.message().contains("'tiny'"), heard.message());
        assertFalse(heard.message().contains("CUDA") || heard.message().contains("secret"), heard.message());
    }

    @Test
    void aStreamingListenerHearsTheFailureAsTheClientShould() {
        AtomicReference<RuntimeException> heard = new AtomicReference<>();
        GenerationListener observed = new ChatLaunch(null, null, new ChatObserver() { }).observed("tiny", System.nanoTime(), new GenerationListener() {
            @Override
            public void onFailure(RuntimeException failure) {
                heard.set(failure);
            }

            @Override
            public void onDelta(GenerationDelta delta) {
            }
        }, () -> { });

        observed.onFailure(new IllegalStateException("internal detail"));

        RefusalException refused = (RefusalException) heard.get();
        assertEquals(Refusal.Reason.NOT_READY, refused.refusal().reason());
    }
}
