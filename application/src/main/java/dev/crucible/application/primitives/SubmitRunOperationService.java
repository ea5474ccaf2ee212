package dev.crucible.application.primitives;

import dev.crucible.application.inference.serving.ServedModel;
import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.application.job.TrainingObserver;
import dev.crucible.application.model.AdapterFiles;
import dev.crucible.application.model.CheckpointStore;
import dev.crucible.application.usage.UsageRecorder;
import dev.crucible.domain.model.ModelId;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/** Checks, logs and queues a run's operation; see {@link SubmitRunOperationUseCase}. */
public final class SubmitRunOperationService implements SubmitRunOperationUseCase {

    private final PrimitiveStore store;
    private final OperationLog log;
    private final LiveRuns live;
    private final ServedModels served;
    private final OperationExecution execution;
    private final RunWork work;
    /** Present on an {@code api} process: operations are queued for the run's owner, a worker, not run here. */
    private final Optional<RunLeases> queue;
    private final PrimitiveLimits limits;
    private final Clock clock;
    /** Accepted and unfinished operations per key, bounded by {@link PrimitiveLimits#maxOperationsInFlight()}. */
    private final KeyBudget inFlight;

    public SubmitRunOperationService(PrimitiveStore store, OperationLog log, OperationSignals signals, LiveRuns live,
            ServedModels served, CheckpointStore checkpoints, AdapterFiles adapters, PrimitiveLimits limits,
            UsageRecorder usage, TrainingObserver observer, Clock clock) {
        this(store, log, signals, live, served, checkpoints, adapters, limits, usage, observer, clock,
                Optional.empty());
    }

    /**
     * With {@code queue} present (an {@code api} process), an accepted operation is only written to the log, queued
     * for the worker that owns its run ({@link RunClaimer}); without it, it runs on this process's live run.
     */
    public SubmitRunOperationService(PrimitiveStore store, OperationLog log, OperationSignals signals, LiveRuns live,
            ServedModels served, CheckpointStore checkpoints, AdapterFiles adapters, PrimitiveLimits limits,
            UsageRecorder usage, TrainingObserver observer, Clock clock, Optional<RunLeases> queue) {
        this.store = Objects.requireNonNull(store, "store");
        this.log = Objects.requireNonNull(log, "log");
        this.live = Objects.requireNonNull(live, "live");
        this.served = Objects.requireNonNull(served, "served");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.inFlight = new KeyBudget(limits.maxOperationsInFlight());
        this.execution = new OperationExecution(log, signals, clock);
        this.work = RunWork.of(store, checkpoints, adapters, limits, usage, observer, clock);
        this.queue = Objects.requireNonNull(queue, "queue");
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
        Outcome<RunWork.Work> work = this.work.check(command.command(), base.get(), command.caller());
        if (work instanceof Outcome.Refused<RunWork.Work> refused) {
            return Outcome.refused(refused.refusal());
        }
        RunWork.Work checked = ((Outcome.Done<RunWork.Work>) work).value();
        if (queue.isPresent()) {
            return enqueue(command, run.get().model(), checked.kind(), queue.get());
        }
        UUID key = command.caller().keyId();
        if (!inFlight.tryTake(key)) {
            return Outcome.refused(keyFull());
        }
        boolean queued = false;
        try {
            ModelId model = run.get().model();
            Operation op = operation(command, model, checked.kind());
            Optional<StoredOperation> holder = log.insertUnlessSequenced(op);
            if (holder.isPresent()) {
                return SequencePlaces.retry(holder.get(), command.digest(), "seq_id", command.seqId());
            }
            Optional<LiveRun> held = live.find(model);
            if (held.isEmpty()) {
                execution.run(op.requestId(), () -> Outcome.refused(notLoaded(model)));
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

    /** Writes the checked operation for the run's owner to take; a run unloaded on a worker fails it at once. */
    private Outcome<UUID> enqueue(Command command, ModelId model, OperationKind kind, RunLeases leases) {
        Operation op = operation(command, model, kind);
        if (leases.isUnloaded(model)) {
            Optional<StoredOperation> holder = log.insertUnlessSequenced(op);
            if (holder.isPresent()) {
                return SequencePlaces.retry(holder.get(), command.digest(), "seq_id", command.seqId());
            }
            execution.run(op.requestId(), () -> Outcome.refused(notLoaded(model)));
            return Outcome.done(op.requestId());
        }
        return switch (leases.enqueue(op, command.caller(), command.command(), limits.maxOperationsInFlight())) {
            case QUEUED -> Outcome.done(op.requestId());
            case KEY_FULL -> Outcome.refused(keyFull());
            // the log answers the place's holder (rows are never deleted, so it is there)
            case PLACE_TAKEN -> SequencePlaces.retry(log.insertUnlessSequenced(op).orElseThrow(), command.digest(),
                    "seq_id", command.seqId());
        };
    }

    /** The log's row of {@code command}, an operation of kind {@code kind} at its place in run {@code model}. */
    private Operation operation(Command command, ModelId model, OperationKind kind) {
        return new Operation(UUID.randomUUID(), command.caller().entity(), kind, Optional.of(model),
                Optional.of(Operation.runSequence(model)), OptionalLong.of(command.seqId()), command.digest(),
                clock.instant());
    }

    private Refusal keyFull() {
        return Refusal.overloaded("this key has " + limits.maxOperationsInFlight() + " training operations in flight, "
                + "the most it may (setting crucible.primitives.max-operations-in-flight); wait for some to finish",
                Duration.ofSeconds(1));
    }

    static Refusal notLoaded(ModelId model) {
        return Refusal.invalid("model_id", "model " + model + " is not loaded in this server (it was unloaded, or the "
                + "server restarted since it was created): create a model and load_weights from a saved state");
    }
}
