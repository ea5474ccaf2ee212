package dev.crucible.application.job;

import dev.crucible.domain.job.JobEvent;
import dev.crucible.domain.job.TrainingJob;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The runner's side of the job table: claiming with row locks so that several processes can share one
 * database, heartbeats, and ending jobs. Jobs of one model run one at a time, oldest first.
 *
 * <p>Thread-safe; each method is one transaction. A method that ends a job only acts while the job is still
 * running under the given runner, so a job cancelled or failed meanwhile is never ended twice.
 */
public interface JobQueue {

    /**
     * Claims the oldest queued job whose model has no running job ({@code SELECT … FOR UPDATE SKIP LOCKED}),
     * marking it running under {@code runnerId}.
     */
    Optional<TrainingJob> claimNext(UUID runnerId, Instant now);

    /** Records that {@code runnerId} still works on {@code job}; false when the job is no longer its own. */
    boolean heartbeat(TrainingJob job, UUID runnerId, Instant now);

    /** Running jobs whose last heartbeat is older than {@code before}: their runner is presumed dead. */
    List<TrainingJob> stale(Instant before);

    /**
     * Hands {@code requeued} (already transitioned back to queued) back to the queue with its
     * {@code training_requeued} {@code event}, if its stored state is still running under {@code runnerId}; it keeps
     * its place in the queue.
     */
    boolean requeue(TrainingJob requeued, UUID runnerId, JobEvent event);

    /** Appends a progress event while {@code job} is still running under {@code runnerId}; false otherwise. */
    boolean progress(TrainingJob job, UUID runnerId, JobEvent event);

    /**
     * Ends {@code failed} (already transitioned) with its terminal {@code event}, if its stored state is still
     * running under {@code runnerId}.
     */
    boolean fail(TrainingJob failed, UUID runnerId, JobEvent event);

    /**
     * Completes {@code running}: adds checkpoint {@code step} of its model (the step its trainer stored the adapter
     * under) with {@code metrics}, then the job's {@code training_ended} event, in one transaction, if it is still
     * running under {@code runnerId}. The step is never recomputed here: when the model already has it, nothing is
     * written and the answer says so.
     */
    JobCompletion complete(TrainingJob running, UUID runnerId, int step, Map<String, Double> metrics, Instant now);
}
