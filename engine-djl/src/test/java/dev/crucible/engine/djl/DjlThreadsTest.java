package dev.crucible.engine.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.pytorch.jni.JniUtils;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The per-thread intra-op counts: one thread for a single token, the configured count for the rest. */
class DjlThreadsTest {

    private static final DjlThreads TWO = DjlThreads.of(2);

    @BeforeAll
    static void startPyTorch() {
        assertTrue(new DjlEngineProvider().health().ok(), "the PyTorch engine starts");
    }

    @AfterEach
    void backToTheTestsCount() {
        // the other tests in this JVM run with the configured count of the build (one thread)
        DjlThreads.of(Integer.getInteger("ai.djl.pytorch.num_threads", 1)).useConfigured();
    }

    @Test
    void aSingleTokenRunsOnOneThreadAndEverythingElseOnTheConfiguredCount() {
        assertEquals(1, TWO.forTokens(1));
        assertEquals(2, TWO.forTokens(2));
        assertEquals(2, TWO.forTokens(512));
        assertEquals(1, DjlThreads.of(0).configured(), "a count below one is one");
    }

    @Test
    void eachCallSetsPyTorchsCountOnTheCallingThread() {
        TWO.useForTokens(1);
        assertEquals(1, JniUtils.getNumThreads());
        TWO.useForTokens(7);
        assertEquals(2, JniUtils.getNumThreads());
        TWO.useForTokens(1);
        assertEquals(1, JniUtils.getNumThreads());
        TWO.useConfigured();
        assertEquals(2, JniUtils.getNumThreads());
    }

    @Test
    void aThreadThatStartsLaterSetsItsOwnCountWhateverAnotherLeft() throws Exception {
        TWO.useForTokens(1);
        int[] seen = CompletableFuture.supplyAsync(() -> {
            TWO.useConfigured();
            int configured = JniUtils.getNumThreads();
            TWO.useForTokens(1);
            return new int[] {configured, JniUtils.getNumThreads()};
        }, runnable -> new Thread(runnable, "later").start()).get();
        assertEquals(2, seen[0]);
        assertEquals(1, seen[1]);
        assertEquals(1, JniUtils.getNumThreads(), "the other thread's change left this one's count alone");
    }
}
