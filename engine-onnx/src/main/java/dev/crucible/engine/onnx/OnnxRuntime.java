package dev.crucible.engine.onnx;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtLoggingLevel;
import ai.onnxruntime.OrtSession;
import dev.crucible.engine.spi.EngineException;

/**
 * ONNX Runtime for one provider, started on first use (its natives load then), and the session options every model
 * gets: {@code -Dcrucible.onnx.threads} intra-op threads (default: the available processors), one inter-op thread,
 * sequential execution, every graph optimisation. The environment logs errors only: the warnings ONNX Runtime prints
 * for a healthy decoder graph (an unused initializer, say) are noise. Thread-safe.
 */
final class OnnxRuntime {

    static final String THREADS_PROPERTY = "crucible.onnx.threads";

    private OrtEnvironment env;

    /** The started environment; a failure to load the natives is {@link EngineException.Reason#RUNTIME_UNAVAILABLE}. */
    synchronized OrtEnvironment env() {
        if (env == null) {
            try {
                env = OrtEnvironment.getEnvironment(OrtLoggingLevel.ORT_LOGGING_LEVEL_ERROR, "crucible");
            } catch (RuntimeException | LinkageError e) {
                throw new EngineException(EngineException.Reason.RUNTIME_UNAVAILABLE,
                        "ONNX Runtime does not load: " + e, e);
            }
        }
        return env;
    }

    /** Fresh session options; the caller closes them once the session exists. */
    OrtSession.SessionOptions options() throws OrtException {
        OrtSession.SessionOptions options = new OrtSession.SessionOptions();
        try {
            options.setIntraOpNumThreads(threads());
            options.setInterOpNumThreads(1);
            options.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
            options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            return options;
        } catch (OrtException | RuntimeException e) {
            options.close();
            throw e;
        }
    }

    /** Names the runtime, e.g. {@code ONNX Runtime 1.29.0 on the CPU, 2 threads}. */
    String describe() {
        return "ONNX Runtime " + env().getVersion() + " on the CPU, " + threads() + " intra-op threads";
    }

    private static int threads() {
        String configured = System.getProperty(THREADS_PROPERTY);
        if (configured == null || configured.isBlank()) {
            return Runtime.getRuntime().availableProcessors();
        }
        try {
            int n = Integer.parseInt(configured.strip());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // Falls through to the refusal below, which names the value.
        }
        throw new EngineException(EngineException.Reason.RUNTIME_UNAVAILABLE, "-D" + THREADS_PROPERTY
                + " must be a positive number of threads, got '" + configured + "'");
    }
}
