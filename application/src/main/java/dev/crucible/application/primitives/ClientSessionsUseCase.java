package dev.crucible.application.primitives;

import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;
import java.util.List;
import java.util.UUID;

/** A client's session: created when a client starts, kept alive by its heartbeats; both are direct replies. */
public interface ClientSessionsUseCase {

    /** A new session of the caller's entity. */
    UUID create(Caller caller, List<String> tags, String sdkVersion);

    /** Records the session's heartbeat; not found when the caller's entity has no such session. */
    Outcome<UUID> heartbeat(Caller caller, String sessionId);
}
