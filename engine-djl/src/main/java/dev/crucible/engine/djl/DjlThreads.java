package dev.crucible.engine.djl;

import ai.djl.pytorch.jni.JniUtils;

/**
 * How many PyTorch intra-op threads the calling thread's next operators use. A forward of one token (one sequence
 * decoding) runs on one thread: its products are matrix-vector ones, which MKL computes on the calling thread alone,
 * so a second OpenMP thread has almost nothing to do and spins between operators; beside any other busy thread that
 * spinning halved batch-1 decoding (docs/decisions.md, "The DJL engine decodes one token on one thread"). Everything
 * else (prefill, batches, training) uses the engine's configured count ({@code -Dai.djl.pytorch.num_threads}).
 *
 * <p>PyTorch keeps the count per thread (OpenMP's and MKL's thread-local settings) but hands the last value set to
 * threads that start using it later, so every entry point sets its own count rather than trusting what an earlier
 * call on another thread left. The last count set on each thread is remembered, so a steady decode loop makes no
 * native call. Thread-safe.
 */
final class DjlThreads {

    private static final ThreadLocal<Integer> SET_HERE = new ThreadLocal<>();

    private final int configured;

    private DjlThreads(int configured) {
        this.configured = configured;
    }

    /** The counts of a started engine: its configured count is what PyTorch reports now, before any change. */
    static DjlThreads ofStartedEngine() {
        return of(JniUtils.getNumThreads());
    }

    /** The counts of an engine configured for {@code configured} threads (at least 1). */
    static DjlThreads of(int configured) {
        return new DjlThreads(Math.max(1, configured));
    }

    /** The engine's configured count (at least 1). */
    int configured() {
        return configured;
    }

    /** The count for a forward of {@code tokens} new tokens: 1 for a single token, else the configured count. */
    int forTokens(int tokens) {
        return tokens == 1 ? 1 : configured;
    }

    /** Sets the calling thread's count for a forward of {@code tokens} new tokens. */
    void useForTokens(int tokens) {
        use(forTokens(tokens));
    }

    /** Sets the calling thread's count to the configured one (training, and anything over many tokens). */
    void useConfigured() {
        use(configured);
    }

    private static void use(int threads) {
        Integer current = SET_HERE.get();
        if (current == null || current != threads) {
            JniUtils.setNumThreads(threads);
            SET_HERE.set(threads);
        }
    }
}
