package dev.crucible.application.inference.serving;

import dev.crucible.engine.spi.EngineProvider;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.hf.folder.ModelFolder;
import java.util.Objects;

/**
 * The runner a served model trains adapters on: the serving runner itself when its engine can train, else the same
 * model loaded into an engine that can (DJL), on the first training job and kept until the model closes. So a model
 * served by an inference-only engine (onnx) still trains, and the checkpoints it writes are served by the serving
 * engine at once. Thread-safe.
 */
public final class TrainingRunner implements AutoCloseable {

    private final ModelRunner serving;
    private final ModelFolder folder;
    private final EngineProvider trainingEngine;
    private ModelRunner loaded;
    private boolean closed;

    private TrainingRunner(ModelRunner serving, ModelFolder folder, EngineProvider trainingEngine) {
        this.serving = Objects.requireNonNull(serving, "serving");
        this.folder = folder;
        this.trainingEngine = trainingEngine;
    }

    /** Training on the serving runner (its engine can train, or no engine can and training will be refused). */
    public static TrainingRunner serving(ModelRunner serving) {
        return new TrainingRunner(serving, null, null);
    }

    /** Training on {@code folder} loaded into {@code trainingEngine} when a job first needs it. */
    public static TrainingRunner separate(ModelRunner serving, ModelFolder folder, EngineProvider trainingEngine) {
        return new TrainingRunner(serving, Objects.requireNonNull(folder, "folder"),
                Objects.requireNonNull(trainingEngine, "trainingEngine"));
    }

    /**
     * The runner to call {@link ModelRunner#newTrainer} on; loads the model into the training engine on first use.
     *
     * @throws dev.crucible.engine.spi.EngineException when the training engine cannot load the model
     * @throws IllegalStateException after {@link #close()}
     */
    public synchronized ModelRunner runner() {
        if (closed) {
            throw new IllegalStateException("the served model is closed");
        }
        if (trainingEngine == null) {
            return serving;
        }
        if (loaded == null) {
            loaded = trainingEngine.loadModel(folder);
        }
        return loaded;
    }

    /** Closes the runner this loaded, if any (the serving runner belongs to the served model); idempotent. */
    @Override
    public synchronized void close() {
        closed = true;
        if (loaded != null) {
            loaded.close();
            loaded = null;
        }
    }
}
