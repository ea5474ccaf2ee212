package dev.crucible.application.inference.chat;

import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.kernel.refusal.RefusalException;
import java.time.Duration;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What a client hears when its generation fails after it was admitted. A failure the request caused is a
 * {@link RefusalException} already and stays as it is (a 4xx that names the field); anything else is the engine's or
 * the server's fault (an {@code OutOfMemoryError} in a forward, a broken engine, the model being reloaded or shut
 * down), which the client hears as not ready, a 503 with a retry hint, in words that carry nothing of the failure
 * itself. The failure is logged with its cause, once, by whoever maps it.
 */
final class ChatFailures {

    /** When a client whose generation failed may try again: a failed step is over at once, a reload takes seconds. */
    static final Duration RETRY = Duration.ofSeconds(2);

    private static final Logger LOG = Logger.getLogger(ChatFailures.class.getName());

    private ChatFailures() {
    }

    /** {@code failure} of a generation on {@code model}, as the client should hear it; logged with its cause. */
    static RefusalException logged(String model, Throwable failure) {
        RefusalException heard = of(model, failure);
        if (heard != failure) {
            LOG.log(Level.WARNING, "a generation on model " + model + " failed; its client hears 503", failure);
        }
        return heard;
    }

    /** {@code failure} of a generation on {@code model}, as the client should hear it; not logged. */
    static RefusalException of(String model, Throwable failure) {
        if (failure instanceof RefusalException refused) {
            return refused;
        }
        return new RefusalException(new Refusal(Refusal.Reason.NOT_READY, "The model '" + model + "' could not "
                + "finish this request: its generation failed on the server's side, not because of the request. "
                + "Please retry.", null, Optional.of(RETRY)));
    }
}
