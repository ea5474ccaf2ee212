package dev.crucible.application.job;

import dev.crucible.domain.job.JobEvent;
import dev.crucible.domain.job.JobId;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Job events, oldest first. Thread-safe; events are only ever appended. */
public interface JobEventStore {

    /** Appends {@code event} after every earlier event of its job. */
    void append(JobEvent event);

    /** Whether {@code eventId} is an event of {@code job}. */
    boolean contains(JobId job, UUID eventId);

    /** Up to {@code count} events of {@code job} in write order, after event {@code after} when given. */
    List<JobEvent> fetch(JobId job, Optional<UUID> after, int count);
}
