package dev.crucible.application.fakes;

import dev.crucible.application.process.ProcessIdentity;
import dev.crucible.application.process.ProcessRegistry;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/** The process registry in memory: each process's last heartbeat. */
public final class InMemoryProcessRegistry implements ProcessRegistry {

    private final Map<UUID, Instant> beats = new HashMap<>();

    @Override
    public synchronized void beat(ProcessIdentity self, Instant now) {
        beats.put(self.id(), now);
    }

    @Override
    public synchronized void leave(UUID id) {
        beats.remove(id);
    }

    /** Whether {@code process} is registered with a heartbeat at or after {@code staleBefore}. */
    public synchronized boolean aliveAt(UUID process, Instant staleBefore) {
        Instant last = process == null ? null : beats.get(process);
        return last != null && !last.isBefore(staleBefore);
    }
}
