package dev.crucible.application.fakes;

import dev.crucible.application.job.JobCompletion;
import dev.crucible.application.job.JobQueue;
import dev.crucible.domain.job.JobEvent;
import dev.crucible.domain.job.JobEventType;
import dev.crucible.domain.job.JobId;
import dev.crucible.domain.job.JobStatus;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.ModelId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The runner's view of {@link InMemoryJobStore} and {@link InMemoryJobEventStore}, with the real queue's
 * ownership rule: a write about a job only lands while the stored job is running under the writing runner.
 */
public final class InMemoryJobQueue implements JobQueue {

    /** One call of {@link #complete}. */
    public record Completion(TrainingJob job, Map<String, Double> metrics) {
    }

    private final InMemoryJobStore jobs;
    private final InMemoryJobEventStore events;
    private final Map<JobId, Instant> heartbeats = new HashMap<>();
    private final Map<ModelId, Set<Integer>> takenSteps = new HashMap<>();
    private final List<Completion> completions = new ArrayList<>();
    private final List<Thread> heartbeatThreads = new ArrayList<>();
    private int claimCalls;
    private int heartbeatCalls;
    private int progressCalls;
    private int failingClaims;
    private int failingHeartbeats;
    private boolean endsRefused;

    public InMemoryJobQueue(InMemoryJobStore jobs, InMemoryJobEventStore events) {
        this.jobs = jobs;
        this.events = events;
    }

    /** Stores {@code job} as running under {@code runner} with its last heartbeat at {@code heartbeatAt}. */
    public synchronized TrainingJob running(TrainingJob queued, UUID runner, Instant startedAt, Instant heartbeatAt) {
        TrainingJob running = queued.start(startedAt, runner);
        jobs.save(running);
        heartbeats.put(running.id(), heartbeatAt);
        return running;
    }

    /** Gives {@code model} a checkpoint at {@code step}, as an adapter import does while a job trains. */
    public synchronized void takeStep(ModelId model, int step) {
        takenSteps.computeIfAbsent(model, m -> new HashSet<>()).add(step);
    }

    /** Makes the next {@code n} claims throw, as a briefly unreachable database would. */
    public synchronized void failNextClaims(int n) {
        failingClaims = n;
    }

    /** Makes the next {@code n} heartbeats throw. */
    public synchronized void failNextHeartbeats(int n) {
        failingHeartbeats = n;
    }

    /** Makes {@link #fail} answer false, as when another process ended the job first. */
    public synchronized void refuseEnds() {
        endsRefused = true;
    }

    public synchronized int heartbeatCalls() {
        return heartbeatCalls;
    }

    public synchronized int claimCalls() {
        return claimCalls;
    }

    /** The threads heartbeats were written from. */
    public synchronized List<Thread> heartbeatThreads() {
        return List.copyOf(heartbeatThreads);
    }

    public synchronized int progressCalls() {
        return progressCalls;
    }

    public synchronized List<Completion> completions() {
        return List.copyOf(completions);
    }

    private boolean owned(TrainingJob job, UUID runnerId) {
        return jobs.get(job.id()).status() instanceof JobStatus.Running r && r.runnerId().equals(runnerId);
    }

    @Override
    public synchronized Optional<TrainingJob> claimNext(UUID runnerId, Instant now) {
        claimCalls++;
        if (failingClaims > 0) {
            failingClaims--;
            throw new IllegalStateException("database unreachable");
        }
        Optional<TrainingJob> next = jobs.all().stream()
                .filter(j -> j.status() instanceof JobStatus.Queued)
                .filter(j -> jobs.all().stream().noneMatch(
                        o -> o.modelId().equals(j.modelId()) && o.status() instanceof JobStatus.Running))
                .findFirst();
        return next.map(j -> running(j, runnerId, now, now));
    }

    @Override
    public synchronized boolean heartbeat(TrainingJob job, UUID runnerId, Instant now) {
        heartbeatCalls++;
        heartbeatThreads.add(Thread.currentThread());
        if (failingHeartbeats > 0) {
            failingHeartbeats--;
            throw new IllegalStateException("database unreachable");
        }
        if (!owned(job, runnerId)) {
            return false;
        }
        heartbeats.put(job.id(), now);
        return true;
    }

    @Override
    public synchronized List<TrainingJob> stale(Instant before) {
        return jobs.all().stream()
                .filter(j -> j.status() instanceof JobStatus.Running && heartbeats.get(j.id()).isBefore(before))
                .toList();
    }

    @Override
    public synchronized boolean progress(TrainingJob job, UUID runnerId, JobEvent event) {
        progressCalls++;
        if (!owned(job, runnerId)) {
            return false;
        }
        events.append(event);
        return true;
    }

    @Override
    public synchronized boolean requeue(TrainingJob requeued, UUID runnerId, JobEvent event) {
        return leave(requeued, runnerId, event);
    }

    @Override
    public synchronized boolean fail(TrainingJob failed, UUID runnerId, JobEvent event) {
        return leave(failed, runnerId, event);
    }

    private boolean leave(TrainingJob next, UUID runnerId, JobEvent event) {
        if (endsRefused || !owned(next, runnerId)) {
            return false;
        }
        jobs.save(next);
        events.append(event);
        return true;
    }

    @Override
    public synchronized JobCompletion complete(TrainingJob running, UUID runnerId, int step,
            Map<String, Double> metrics, Instant now) {
        if (!owned(running, runnerId)) {
            return new JobCompletion.NotHeld();
        }
        if (!takenSteps.computeIfAbsent(running.modelId(), m -> new HashSet<>()).add(step)) {
            return new JobCompletion.StepTaken(step);
        }
        TrainingJob completed = running.complete(now, step);
        jobs.save(completed);
        completions.add(new Completion(completed, Map.copyOf(metrics)));
        events.append(JobEvent.of(running.id(), JobEventType.TRAINING_ENDED, Map.of(), now));
        return new JobCompletion.Completed(completed);
    }
}
