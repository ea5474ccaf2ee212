package dev.crucible.application.primitives;

import dev.crucible.application.inference.serving.ServedModel;
import dev.crucible.application.job.TrainingObserver;
import dev.crucible.application.model.AdapterFiles;
import dev.crucible.application.model.CheckpointStore;
import dev.crucible.application.usage.UsageRecorder;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.usage.TrainingUsage;
import dev.crucible.domain.usage.UsageProject;
import dev.crucible.kernel.refusal.Outcome;
import java.time.Clock;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What a run's operation does, checked against the run's base model: its kind and the body its run's sequencer runs.
 * The same check serves the process that accepts an operation and the worker that runs a queued one, so both refuse
 * the same input the same way.
 */
record RunWork(RunOperations operations, RunWeights weights, PrimitiveLimits limits, UsageRecorder usage,
        Clock clock) {

    /** The work of runs whose weights live in {@code store}, {@code checkpoints} and {@code adapters}. */
    static RunWork of(PrimitiveStore store, CheckpointStore checkpoints, AdapterFiles adapters, PrimitiveLimits limits,
            UsageRecorder usage, TrainingObserver observer, Clock clock) {
        return new RunWork(new RunOperations(limits.microBatchTokens(), limits.maxLogprobDrift(),
                Objects.requireNonNull(observer, "observer")), new RunWeights(store, checkpoints, adapters, clock),
                limits, Objects.requireNonNull(usage, "usage"), clock);
    }

    /** A checked command: its kind and what its run's worker does for it. */
    record Work(OperationKind kind, Function<LiveRun, Outcome<OperationResult>> body) {

        Supplier<Outcome<OperationResult>> task(LiveRun run) {
            return () -> body.apply(run);
        }
    }

    Outcome<Work> check(RunCommand command, ServedModel base, Caller caller) {
        return switch (command) {
            case RunCommand.ForwardBackward fb -> new DatumCheck(base.config().vocabSize(), base.maxModelLen(),
                    limits.maxDatums()).prepare(fb.input(), fb.input().forwardOnly() ? "forward_input"
                            : "forward_backward_input").map(batch -> new Work(batch.forwardOnly()
                                    ? OperationKind.FORWARD : OperationKind.FORWARD_BACKWARD,
                                    run -> operations.forwardBackward(run, batch)
                                            .map(result -> counted(caller, run.run(), batch, result))));
            case RunCommand.OptimStep step -> Outcome.done(new Work(OperationKind.OPTIM_STEP,
                    run -> operations.optimStep(run, step)));
            case RunCommand.Unload unload -> Outcome.done(new Work(OperationKind.UNLOAD_MODEL,
                    run -> Outcome.done(new OperationResult.Unloaded(run.run().model()))));
            case RunCommand.SaveWeights save -> Outcome.done(new Work(OperationKind.SAVE_WEIGHTS,
                    run -> weights.save(run, save.name())));
            case RunCommand.LoadWeights load -> Outcome.done(new Work(OperationKind.LOAD_WEIGHTS,
                    run -> weights.load(run, load.path(), load.optimizer())));
            case RunCommand.SaveForSampler save -> Outcome.done(new Work(OperationKind.SAVE_WEIGHTS_FOR_SAMPLER,
                    run -> weights.saveForSampler(run, save.name())));
        };
    }

    /**
     * Counts a finished {@code forward_backward} (or {@code forward}) in the usage API, under the entity's default
     * project and the run's model address, as a sample of the run is counted.
     */
    private OperationResult counted(Caller caller, TrainingRun run, PreparedBatch batch, OperationResult result) {
        long tokens = batch.tokens();
        usage.record(new TrainingUsage(caller.entity(), UsageProject.defaultOf(caller.entity()),
                TrainingRun.address(caller.entity(), run.model()), caller.keyId(), clock.instant(),
                batch.forwardOnly() ? 0 : tokens, batch.forwardOnly() ? tokens : 0));
        return result;
    }
}
