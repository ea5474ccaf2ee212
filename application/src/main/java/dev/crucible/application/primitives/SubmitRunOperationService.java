package dev.crucible.application.primitives;

import dev.crucible.application.inference.serving.ServedModel;
import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.application.job.TrainingObserver;
import dev.crucible.application.model.AdapterFiles;
import dev.crucible.application.model.CheckpointStore;
import dev.crucible.application.usage.UsageRecorder;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.usage.TrainingUsage;
import dev.crucible.domain.usage.UsageProject;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

/** Checks, logs and queues a run's operation; see {@link SubmitRunOperationUseCase}. */
public final class SubmitRunOperationService implements SubmitRunOperationUseCase {

    private final PrimitiveStore store;
    private final OperationLog log;
    private final LiveRuns live;
    private final ServedModels served;
    private final OperationExecution execution;
    private final RunOperations operations;
    private final RunWeights weights;
    private final PrimitiveLimits limits;
    private final UsageRecorder usage;
    private final Clock clock;
    /** Accepted and unfinished operations per key, bounded by {@link PrimitiveLimits#maxOperationsInFlight()}. */
    private final KeyBudget inFlight;

    public SubmitRunOperationService(PrimitiveStore store, OperationLog log, OperationSignals signals, LiveRuns live,
            ServedModels served, CheckpointStore checkpoints, AdapterFiles adapters, PrimitiveLimits limits,
            UsageRecorder usage, TrainingObserver observer, Clock clock) {
        this.store = Objects.requireNonNull(store, "store");
        this.log = Objects.requireNonNull(log, "log");
        this.live = Objects.requireNonNull(live, "live");
        this.served = Objects.requireNonNull(served, "served");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.usage = Objects.requireNonNull(usage, "usage");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.inFlight = new KeyBudget(limits.maxOperationsInFlight());
        this.execution = new OperationExecution(log, signals, clock);
        this.operations = new RunOperations(limits.microBatchTokens(), limits.maxLogprobDrift(),
                Objects.requireNonNull(observer, "observer"));
        this.weights = new RunWeights(store, checkpoints, adapters, clock);
    }

    @Override
    public Outcome<UUID> submit(Command command) {
        Optional<TrainingRun> run = RequestIds.parse(command.modelId()).map(ModelId::new)
                .flatMap(id -> store.findRun(command.caller().entity(), id));
        if (run.isEmpty()) {
            return Outcome.refused(Refusal.notFound("model_id", "no model with model_id '"
                    + RequestIds.excerpt(command.modelId()) + "'"));
        }
        Optional<ServedModel> base = served.find(run.get().baseModel());
        if (base.isEmpty()) {
            return Outcome.refused(Refusal.invalid("model_id", "the run's base model '" + run.get().baseModel()
                    + "' is not served by this server"));
        }
        Outcome<Work> work = work(command.command(), base.get(), command.caller());
        if (work instanceof Outcome.Refused<Work> refused) {
            return Outcome.refused(refused.refusal());
        }
        Work checked = ((Outcome.Done<Work>) work).value();
        UUID key = command.caller().keyId();
        if (!inFlight.tryTake(key)) {
            return Outcome.refused(Refusal.overloaded("this key has " + limits.maxOperationsInFlight()
                    + " training operations in flight, the most it may (setting "
                    + "crucible.primitives.max-operations-in-flight); wait for some to finish", Duration.ofSeconds(1)));
        }
        boolean queued = false;
        try {
            ModelId model = run.get().model();
            Operation op = new Operation(UUID.randomUUID(), command.caller().entity(), checked.kind(),
                    Optional.of(model), Optional.of(Operation.runSequence(model)), OptionalLong.of(command.seqId()),
                    command.digest(), clock.instant());
            Optional<StoredOperation> holder = log.insertUnlessSequenced(op);
            if (holder.isPresent()) {
                return SequencePlaces.retry(holder.get(), command.digest(), "seq_id", command.seqId());
            }
            Optional<LiveRun> held = live.find(model);
            if (held.isEmpty()) {
                execution.run(op.requestId(), () -> Outcome.refused(Refusal.invalid("model_id", "model " + model
                        + " is not loaded in this server (it was unloaded, or the server restarted since it was "
                        + "created): create a model and load_weights from a saved state")));
                return Outcome.done(op.requestId());
            }
            held.get().sequencer().submit(command.seqId(), () -> {
                try {
                    execution.run(op.requestId(), checked.task(held.get()));
                } finally {
                    inFlight.give(key);
                }
            });
            queued = true;
            if (checked.kind() == OperationKind.UNLOAD_MODEL) {
                live.unload(model);
            }
            return Outcome.done(op.requestId());
        } finally {
            if (!queued) {
                inFlight.give(key);
            }
        }
    }

    /** A checked command: its kind and what its run's worker does for it. */
    private record Work(OperationKind kind, Function<LiveRun, Outcome<OperationResult>> body) {

        Supplier<Outcome<OperationResult>> task(LiveRun run) {
            return () -> body.apply(run);
        }
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

    private Outcome<Work> work(RunCommand command, ServedModel base, Caller caller) {
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
}
