package dev.crucible.application.fakes;

import dev.crucible.application.job.JobStore;
import dev.crucible.domain.job.JobId;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.JobStatus;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.tenancy.EntityName;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/** Jobs in queue order with their inputs; {@link #save} replaces a job's record as the real table's update would. */
public final class InMemoryJobStore implements JobStore {

    private final Map<JobId, TrainingJob> jobs = new LinkedHashMap<>();
    private final Map<JobId, JobSpec> specs = new LinkedHashMap<>();

    public synchronized void save(TrainingJob job) {
        jobs.put(job.id(), job);
    }

    public synchronized TrainingJob get(JobId id) {
        return jobs.get(id);
    }

    public synchronized List<TrainingJob> all() {
        return new ArrayList<>(jobs.values());
    }

    public synchronized Map<JobId, JobSpec> specs() {
        return Map.copyOf(specs);
    }

    @Override
    public synchronized void enqueue(TrainingJob job, JobSpec spec) {
        jobs.put(job.id(), job);
        specs.put(job.id(), spec);
    }

    @Override
    public synchronized OptionalLong enqueueWithin(TrainingJob job, JobSpec spec, int maxQueued) {
        long queued = jobs.values().stream().filter(j -> j.entity().equals(job.entity()))
                .filter(j -> j.status() instanceof JobStatus.Queued).count();
        if (queued >= maxQueued) {
            return OptionalLong.of(queued);
        }
        enqueue(job, spec);
        return OptionalLong.empty();
    }

    @Override
    public synchronized Optional<TrainingJob> find(EntityName entity, JobId id) {
        return Optional.ofNullable(jobs.get(id)).filter(j -> j.entity().equals(entity));
    }

    @Override
    public synchronized Map<String, Long> countByStatus() {
        return jobs.values().stream().collect(java.util.stream.Collectors.groupingBy(
                j -> j.status().wireName(),
                java.util.TreeMap::new, java.util.stream.Collectors.counting()));
    }

    @Override
    public synchronized List<TrainingJob> fetchPage(EntityName entity, PageRequest page, Optional<TrainingJob> after) {
        return InMemoryPages.fetch(jobs.values().stream().filter(j -> j.entity().equals(entity)).toList(), page, after,
                TrainingJob::id);
    }

    @Override
    public synchronized List<TrainingJob> active(ModelId model) {
        return jobs.values().stream().filter(j -> j.modelId().equals(model) && !j.status().terminal()).toList();
    }

    @Override
    public synchronized Optional<JobSpec> spec(JobId id) {
        return Optional.ofNullable(specs.get(id));
    }
}
