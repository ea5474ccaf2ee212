package dev.crucible.application.job;

import dev.crucible.application.model.ModelLookup;
import dev.crucible.application.model.ModelStore;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.JobType;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.tenancy.Caller;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Validates a job's input against its model and settings, then queues it, unless its entity already has
 * {@code maxQueuedPerEntity} jobs queued (a 429 to retry once some have started); the runner does the rest.
 */
public record CreateJobService(ModelStore models, JobStore jobs, TrainingDataPolicy dataPolicy, int maxQueuedPerEntity,
        Clock clock) implements CreateRlJobUseCase, CreateSftJobUseCase {

    /** When an entity whose queue is full may try again: jobs take minutes, so not at once. */
    static final Duration RETRY_AFTER = Duration.ofSeconds(30);

    public CreateJobService {
        if (maxQueuedPerEntity < 1) {
            throw new IllegalArgumentException("crucible.jobs.max-queued-per-entity must be >= 1, got "
                    + maxQueuedPerEntity);
        }
    }

    @Override
    public Outcome<TrainingJob> create(CreateRlJobUseCase.Command command) {
        if (command.trajectoryGroups().isEmpty()) {
            return Outcome.refused(Refusal.invalid("trajectory_groups", "trajectory_groups must not be empty"));
        }
        return ModelLookup.ownedBy(models, command.caller(), command.modelId())
                .then(model -> queue(JobType.RL, model, command.caller(),
                        new JobSpec.Rl(command.trajectoryGroups(), command.config(), command.dataset())));
    }

    @Override
    public Outcome<TrainingJob> create(CreateSftJobUseCase.Command command) {
        Map<String, Object> experimental = command.experimentalConfig() == null ? Map.of() : command.experimentalConfig();
        return dataPolicy.check(command.caller().entity(), command.trainingDataUrl())
                .then(url -> ModelLookup.ownedBy(models, command.caller(), command.modelId())
                        .then(model -> queue(JobType.SFT, model, command.caller(),
                                new JobSpec.Sft(url, command.config(), experimental))));
    }

    private Outcome<TrainingJob> queue(JobType type, Model model, Caller caller, JobSpec spec) {
        TrainingJob job = TrainingJob.queue(type, model.id(), caller.entity(), clock.instant());
        OptionalLong queued = jobs.enqueueWithin(job, spec, maxQueuedPerEntity);
        if (queued.isPresent()) {
            return Outcome.refused(Refusal.overloaded("this entity already has " + queued.getAsLong()
                    + " training jobs queued, its most (setting crucible.jobs.max-queued-per-entity); retry once "
                    + "some have started", RETRY_AFTER));
        }
        return Outcome.done(job);
    }
}
