package dev.crucible.application.fakes;

import dev.crucible.application.job.JobEventStore;
import dev.crucible.domain.job.JobEvent;
import dev.crucible.domain.job.JobId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Events in write order. */
public final class InMemoryJobEventStore implements JobEventStore {

    private final List<JobEvent> events = new ArrayList<>();

    @Override
    public synchronized void append(JobEvent event) {
        events.add(event);
    }

    @Override
    public synchronized boolean contains(JobId job, UUID eventId) {
        return events.stream().anyMatch(e -> e.jobId().equals(job) && e.id().equals(eventId));
    }

    @Override
    public synchronized List<JobEvent> fetch(JobId job, Optional<UUID> after, int count) {
        List<JobEvent> ofJob = of(job);
        int start = 0;
        if (after.isPresent()) {
            for (int i = 0; i < ofJob.size(); i++) {
                if (ofJob.get(i).id().equals(after.get())) {
                    start = i + 1;
                }
            }
        }
        return ofJob.subList(start, Math.min(ofJob.size(), start + count));
    }

    public synchronized List<JobEvent> of(JobId job) {
        return events.stream().filter(e -> e.jobId().equals(job)).toList();
    }
}
