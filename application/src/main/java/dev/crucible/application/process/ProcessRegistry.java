package dev.crucible.application.process;

import java.time.Instant;
import java.util.UUID;

/**
 * The processes sharing one database and their heartbeats: a process whose heartbeat is older than the stale limit
 * is presumed dead. Thread-safe; each method is one transaction; infrastructure failures are unchecked exceptions.
 */
public interface ProcessRegistry {

    /** Records that {@code self} is alive at {@code now}, registering it on its first beat. */
    void beat(ProcessIdentity self, Instant now);

    /** Removes process {@code id}: it stopped cleanly. Removing an unknown id does nothing. */
    void leave(UUID id);
}
