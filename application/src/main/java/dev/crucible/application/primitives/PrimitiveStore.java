package dev.crucible.application.primitives;

import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.EntityName;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Where the primitives' client sessions, training runs and sampling sessions live. Every read is scoped by entity, so
 * one tenant never sees another's.
 *
 * <p>Thread-safe; each method is one transaction. Infrastructure failures are unchecked exceptions.
 */
public interface PrimitiveStore {

    /** Records a new client session of {@code entity}. */
    void insertSession(UUID id, EntityName entity, List<String> tags, String sdkVersion, Instant now);

    /** Records that the session is alive; false when {@code entity} has no such session. */
    boolean heartbeat(EntityName entity, UUID session, Instant now);

    /** Inserts the run's model (with its step-0 checkpoint) and the run, in one transaction. */
    void insertRun(Model model, Checkpoint initial, TrainingRun run);

    /** The entity's run {@code model}; empty when there is none (or the model is not a run). */
    Optional<TrainingRun> findRun(EntityName entity, ModelId model);

    /** The entity's runs, newest first, at most {@code limit} from {@code offset}. */
    List<TrainingRun> listRuns(EntityName entity, int limit, int offset);

    void insertSampler(SamplingSession sampler);

    /** The entity's sampling session {@code id}; empty when there is none. */
    Optional<SamplingSession> findSampler(EntityName entity, UUID id);

    /**
     * Names checkpoint {@code step} of run {@code model} {@code name} among its saved states of {@code kind}
     * ({@code weights} or {@code sampler_weights}); a name used before now names this step.
     */
    void nameState(ModelId model, String kind, String name, int step, Instant now);

    /** The checkpoint step of the entity's run {@code model} that {@code kind}/{@code name} names. */
    java.util.OptionalInt findState(EntityName entity, ModelId model, String kind, String name);

    /** How many runs {@code entity} has. */
    int countRuns(EntityName entity);

    /** When the last operation of run {@code model} was accepted; empty when it has none. */
    Optional<Instant> lastRequestAt(ModelId model);

    /** The saved states of run {@code model} (the caller has checked it is theirs), oldest first. */
    List<SavedState> listStates(ModelId model);

    /** Forgets the name {@code kind}/{@code name} of run {@code model}; false when it had none. */
    boolean deleteState(ModelId model, String kind, String name);

    /** Whether any saved state of run {@code model} names checkpoint {@code step}. */
    boolean stepNamed(ModelId model, int step);
}
