package dev.crucible.application.inference.chat;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.runtime.generation.RequestOwner;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Counts each key's and each entity's chat requests from admission to their end and refuses one past its
 * {@link RequestLimits}. Thread-safe.
 */
final class ChatAdmission {

    private final RequestLimits limits;
    private final Map<String, Integer> keys = new HashMap<>();
    private final Map<String, Integer> entities = new HashMap<>();

    ChatAdmission(RequestLimits limits) {
        this.limits = limits;
    }

    /** A ticket for one more request of {@code owner}, or an overload refusal saying to retry after {@code retry}. */
    synchronized Outcome<Ticket> admit(RequestOwner owner, Duration retry) {
        if (keys.getOrDefault(owner.key(), 0) >= limits.maxPerKey()) {
            return Outcome.refused(Refusal.overloaded("This API key already has " + limits.maxPerKey()
                    + " chat requests in flight or waiting, its limit. Please retry later.", retry));
        }
        if (entities.getOrDefault(owner.entity(), 0) >= limits.maxPerEntity()) {
            return Outcome.refused(Refusal.overloaded("Entity '" + owner.entity() + "' already has "
                    + limits.maxPerEntity() + " chat requests in flight or waiting, its limit. Please retry later.",
                    retry));
        }
        keys.merge(owner.key(), 1, Integer::sum);
        entities.merge(owner.entity(), 1, Integer::sum);
        return Outcome.done(new Ticket(owner));
    }

    /** The requests {@code owner}'s key holds now. */
    synchronized int heldByKey(RequestOwner owner) {
        return keys.getOrDefault(owner.key(), 0);
    }

    private synchronized void release(RequestOwner owner) {
        keys.computeIfPresent(owner.key(), (k, held) -> held > 1 ? held - 1 : null);
        entities.computeIfPresent(owner.entity(), (e, held) -> held > 1 ? held - 1 : null);
    }

    /** One admitted request's place; {@link #release()} gives it back, once however often it is called. */
    final class Ticket {

        private final RequestOwner owner;
        private boolean released;

        private Ticket(RequestOwner owner) {
            this.owner = owner;
        }

        void release() {
            synchronized (this) {
                if (released) {
                    return;
                }
                released = true;
            }
            ChatAdmission.this.release(owner);
        }
    }
}
