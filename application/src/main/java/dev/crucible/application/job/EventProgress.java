package dev.crucible.application.job;

import dev.crucible.domain.job.JobEvent;
import dev.crucible.domain.job.JobEventType;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.runtime.training.LogprobDrift;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Turns trainer progress into job events, written at once; a refused write means the job was taken away. The
 * trainer is told to stop when the job was taken away or the runner is stopping.
 */
final class EventProgress implements TrainingProgress {

    private final JobQueue queue;
    private final TrainingJob job;
    private final UUID runnerId;
    private final Clock clock;
    private final AtomicBoolean lost;
    private final AtomicBoolean stopping;
    private final TrainingObserver observer;
    private Instant lastStep;

    EventProgress(JobQueue queue, TrainingJob job, UUID runnerId, Clock clock, AtomicBoolean lost,
            AtomicBoolean stopping, TrainingObserver observer) {
        this.queue = queue;
        this.job = job;
        this.runnerId = runnerId;
        this.clock = clock;
        this.lost = lost;
        this.stopping = stopping;
        this.observer = observer;
        this.lastStep = clock.instant();
    }

    @Override
    public void started(int numSequences, Map<String, Number> extra) {
        Map<String, Object> data = new LinkedHashMap<>(extra);
        // ART reads num_sequences; its first client read num_gradient_steps: write both.
        data.put("num_sequences", numSequences);
        data.put("num_gradient_steps", numSequences);
        write(JobEventType.TRAINING_STARTED, data);
        lastStep = clock.instant();
    }

    @Override
    public void gradientStep(Map<String, Number> metrics) {
        write(JobEventType.GRADIENT_STEP, new LinkedHashMap<>(metrics));
        Instant now = clock.instant();
        // num_tokens: the step's batch, as StepMetrics names it in every gradient_step event
        Number tokens = metrics.get("num_tokens");
        observer.gradientStep(job.type(), tokens == null ? 0 : tokens.longValue(), Duration.between(lastStep, now));
        lastStep = now;
    }

    @Override
    public void samplerDrift(LogprobDrift drift) {
        observer.samplerDrift(TrainingObserver.RL_JOB, drift);
    }

    @Override
    public boolean cancelled() {
        return lost.get() || stopping.get();
    }

    private void write(JobEventType type, Map<String, Object> data) {
        if (!lost.get() && !queue.progress(job, runnerId, JobEvent.of(job.id(), type, data, clock.instant()))) {
            lost.set(true);
        }
    }
}
