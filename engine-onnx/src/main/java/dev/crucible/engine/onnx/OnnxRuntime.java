package dev.crucible.engine.onnx;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtLoggingLevel;
import ai.onnxruntime.OrtProvider;
import ai.onnxruntime.OrtSession;
import dev.crucible.engine.spi.EngineException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ONNX Runtime for one provider, started on first use (its natives load then) on a thread of its own with a large
 * stack, and the session options every model gets: {@code -Dcrucible.onnx.threads} intra-op threads (default: the
 * available processors), one inter-op thread, sequential execution, every graph optimisation. The environment logs errors only: the warnings ONNX Runtime prints
 * for a healthy decoder graph (an unused initializer, say) are noise. Thread-safe.
 */
final class OnnxRuntime {

    static final String THREADS_PROPERTY = "crucible.onnx.threads";
    /**
     * A file prefix: when set, ONNX Runtime writes each session's per-node timings there as Chrome-trace JSON (what
     * {@code bench/profile} reads). An operator's diagnostic, never set from a request; it slows every run a little.
     */
    static final String PROFILE_PROPERTY = "crucible.onnx.profile";
    /** {@code cuda} (the default: CUDA when the GPU build is on the class path and a device answers) or {@code cpu}. */
    static final String DEVICE_PROPERTY = "crucible.onnx.device";

    private static final Logger LOG = LoggerFactory.getLogger(OnnxRuntime.class);

    /**
     * The starting thread's stack. Creating the environment recurses over the process's command line (seen in a core
     * dump: about 11,800 native frames for a 15.8 kB command line, a long class path), so on a Java thread's 1 MB stack
     * a long command line overflows it and the JVM dies with SIGSEGV and no message. Linux bounds the whole command
     * line by a few MB; the stack is only reserved, so its size costs address space, not memory.
     */
    private static final long START_STACK_BYTES = 1L << 30;

    private OrtEnvironment env;
    /** Null until the first session's options asked; then whether CUDA took them. */
    private Boolean cuda;

    /** The started environment; a failure to load the natives is {@link EngineException.Reason#RUNTIME_UNAVAILABLE}. */
    synchronized OrtEnvironment env() {
        if (env == null) {
            env = startOnLargeStack();
        }
        return env;
    }

    private static OrtEnvironment startOnLargeStack() {
        AtomicReference<OrtEnvironment> started = new AtomicReference<>();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread starter = new Thread(null, () -> {
            try {
                started.set(OrtEnvironment.getEnvironment(OrtLoggingLevel.ORT_LOGGING_LEVEL_ERROR, "crucible"));
            } catch (RuntimeException | LinkageError e) {
                failed.set(e);
            }
        }, "onnxruntime-start", START_STACK_BYTES);
        starter.start();
        try {
            starter.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EngineException(EngineException.Reason.RUNTIME_UNAVAILABLE, "interrupted while ONNX Runtime "
                    + "was starting", e);
        }
        if (started.get() == null) {
            throw new EngineException(EngineException.Reason.RUNTIME_UNAVAILABLE, "ONNX Runtime does not load: "
                    + failed.get(), failed.get());
        }
        return started.get();
    }

    /**
     * Fresh session options; the caller closes them once the session exists. With the GPU build of ONNX Runtime
     * (Maven profile {@code gpu}) they put the CUDA execution provider first, unless {@code -Dcrucible.onnx.device=cpu};
     * when CUDA does not start (no device, no driver) the sessions run on the CPU and this is logged once.
     */
    OrtSession.SessionOptions options() throws OrtException {
        OrtSession.SessionOptions options = new OrtSession.SessionOptions();
        try {
            options.setIntraOpNumThreads(threads());
            options.setInterOpNumThreads(1);
            options.setExecutionMode(OrtSession.SessionOptions.ExecutionMode.SEQUENTIAL);
            options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            String profile = System.getProperty(PROFILE_PROPERTY);
            if (profile != null && !profile.isBlank()) {
                options.enableProfiling(profile);
            }
            addCuda(options);
            return options;
        } catch (OrtException | RuntimeException e) {
            options.close();
            throw e;
        }
    }

    private synchronized void addCuda(OrtSession.SessionOptions options) {
        if (Boolean.FALSE.equals(cuda)) {
            return;
        }
        boolean wanted = !"cpu".equals(System.getProperty(DEVICE_PROPERTY, "cuda").strip())
                && OrtEnvironment.getAvailableProviders().contains(OrtProvider.CUDA);
        if (!wanted) {
            cuda = false;
            return;
        }
        try {
            options.addCUDA(0);
            cuda = true;
        } catch (OrtException | RuntimeException e) {
            cuda = false;
            LOG.warn("ONNX Runtime's CUDA provider does not start ({}); the onnx engine runs on the CPU", e.getMessage());
        }
    }

    /** Names the runtime, e.g. {@code ONNX Runtime 1.29.0 on the CPU, 2 intra-op threads}. */
    synchronized String describe() {
        String version = env().getVersion();
        return Boolean.TRUE.equals(cuda) ? "ONNX Runtime " + version + " on CUDA device 0"
                : "ONNX Runtime " + version + " on the CPU, " + threads() + " intra-op threads";
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
