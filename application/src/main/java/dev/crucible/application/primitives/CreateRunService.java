package dev.crucible.application.primitives;

import dev.crucible.application.inference.serving.ServedModel;
import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelCoordinates;
import dev.crucible.domain.model.ModelId;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * Makes a training run: the adapter's settings checked against what Crucible can train, a live place taken, the
 * operation logged, then the model and run stored and the operation finished. The model is named
 * {@code tinker/run-<id>} in its entity, so it lists beside the entity's other models.
 *
 * @param onWorkers an {@code api} process: the run is only stored, and the worker that claims its first operation
 *                  holds it ({@link RunClaimer}), so no live place is taken here
 */
public record CreateRunService(PrimitiveStore store, OperationLog log, OperationSignals signals, LiveRuns live,
        ServedModels served, PrimitiveLimits limits, Clock clock, boolean onWorkers) implements CreateRunUseCase {

    /** A run held by this process, which both accepts and runs its operations. */
    public CreateRunService(PrimitiveStore store, OperationLog log, OperationSignals signals, LiveRuns live,
            ServedModels served, PrimitiveLimits limits, Clock clock) {
        this(store, log, signals, live, served, limits, clock, false);
    }

    /** The project a run's model is created in. */
    public static final String PROJECT = "tinker";

    @Override
    public Outcome<UUID> create(Command command) {
        Optional<ServedModel> base = served.find(command.baseModel());
        if (base.isEmpty()) {
            return Outcome.refused(Refusal.invalid("base_model", "base_model '" + command.baseModel()
                    + "' is not served here; served base models: " + served.names()));
        }
        LoraSettings lora = command.lora();
        if (lora.rank() > limits.maxLoraRank()) {
            return Outcome.refused(Refusal.invalid("lora_config.rank", "rank must be at most " + limits.maxLoraRank()
                    + " (setting crucible.primitives.max-lora-rank), got " + lora.rank()));
        }
        if (!lora.trainAttn() && !lora.trainMlp() && !lora.trainUnembed()) {
            return Outcome.refused(Refusal.invalid("lora_config.train_attn", "train_attn, train_mlp or train_unembed "
                    + "must be true: the adapter must train something"));
        }
        Instant now = clock.instant();
        ModelId id = ModelId.random();
        TrainingRun run = new TrainingRun(id, command.caller().entity(), command.session(), command.baseModel(),
                lora, now);
        if (!onWorkers && live.open(run, base.get()) instanceof Outcome.Refused<LiveRun> refused) {
            return Outcome.refused(refused.refusal());
        }
        boolean sequenced = command.session().isPresent() && command.modelSeqId().isPresent();
        Operation op = new Operation(UUID.randomUUID(), command.caller().entity(), OperationKind.CREATE_MODEL,
                Optional.of(id), sequenced ? Optional.of("session:" + command.session().get() + ":models")
                        : Optional.empty(), sequenced ? command.modelSeqId() : OptionalLong.empty(),
                command.digest(), now);
        try {
            Optional<StoredOperation> holder = log.insertUnlessSequenced(op);
            if (holder.isPresent()) {
                live.unload(id);
                return SequencePlaces.retry(holder.get(), command.digest(), "model_seq_id",
                        command.modelSeqId().getAsLong());
            }
            Model model = new Model(id, new ModelCoordinates(command.caller().entity(), PROJECT, "run-" + id),
                    command.baseModel(), now, 0);
            store.insertRun(model, Checkpoint.initial(id, now), run);
            log.complete(op.requestId(), new OperationResult.ModelCreated(id), clock.instant());
        } catch (RuntimeException e) {
            live.unload(id);
            log.fail(op.requestId(), "the run could not be stored: " + e, FailureCategory.SERVER, clock.instant());
            throw e;
        } finally {
            signals.finished();
        }
        return Outcome.done(op.requestId());
    }
}
