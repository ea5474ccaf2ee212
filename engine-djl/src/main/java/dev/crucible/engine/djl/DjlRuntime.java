package dev.crucible.engine.djl;

import ai.djl.Device;
import ai.djl.engine.Engine;
import dev.crucible.engine.spi.EngineException;

/**
 * The PyTorch engine of one provider, started on first use. DJL is put offline first (unless the operator chose
 * otherwise with {@code DJL_OFFLINE} or {@code -Dai.djl.offline}): the natives are bundled, so any download attempt
 * is a misconfiguration that should fail at once rather than reach for the network. Thread-safe.
 */
final class DjlRuntime {

    static final String ENGINE_NAME = "PyTorch";
    private static final String OFFLINE_PROPERTY = "ai.djl.offline";
    private static final String OFFLINE_ENV = "DJL_OFFLINE";

    private final boolean cuda;
    private Engine engine;
    private DjlThreads threads;

    DjlRuntime(boolean cuda) {
        this.cuda = cuda;
    }

    /** The started engine; a failure to load the natives is {@link EngineException.Reason#RUNTIME_UNAVAILABLE}. */
    synchronized Engine engine() {
        if (engine == null) {
            holdOffline();
            try {
                engine = Engine.getEngine(ENGINE_NAME);
                threads = DjlThreads.ofStartedEngine();
            } catch (RuntimeException | LinkageError e) {
                throw new EngineException(EngineException.Reason.RUNTIME_UNAVAILABLE,
                        "the PyTorch engine of DJL does not load: " + e, e);
            }
        }
        return engine;
    }

    /**
     * Puts DJL offline unless the operator chose otherwise; called before anything of DJL that could reach the network
     * (engine and native-library loading, its telemetry). Idempotent and thread-safe.
     */
    static void holdOffline() {
        if (System.getenv(OFFLINE_ENV) == null && System.getProperty(OFFLINE_PROPERTY) == null) {
            System.setProperty(OFFLINE_PROPERTY, "true");
        }
    }

    /** The intra-op thread counts of the started engine (starting it if needed). */
    synchronized DjlThreads threads() {
        engine();
        return threads;
    }

    /** Where models run: the first GPU when CUDA is usable, else the CPU. */
    Device device() {
        return cuda ? Device.gpu() : Device.cpu();
    }

    /** Starts the engine and names it, e.g. {@code PyTorch 2.7.1 on cpu()}. */
    String describe() {
        Engine e = engine();
        return e.getEngineName() + " " + e.getVersion() + " on " + device();
    }
}
