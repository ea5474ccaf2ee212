package dev.crucible.application.primitives;

import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Sessions in the {@link PrimitiveStore}; see {@link ClientSessionsUseCase}. */
public record ClientSessionsService(PrimitiveStore store, Clock clock) implements ClientSessionsUseCase {

    @Override
    public UUID create(Caller caller, List<String> tags, String sdkVersion) {
        UUID id = UUID.randomUUID();
        store.insertSession(id, caller.entity(), tags, sdkVersion, clock.instant());
        return id;
    }

    @Override
    public Outcome<UUID> heartbeat(Caller caller, String sessionId) {
        Optional<UUID> id = RequestIds.parse(sessionId);
        if (id.isPresent() && store.heartbeat(caller.entity(), id.get(), clock.instant())) {
            return Outcome.done(id.get());
        }
        return Outcome.refused(Refusal.notFound("session_id", "no session with session_id '"
                + RequestIds.excerpt(sessionId) + "'"));
    }
}
