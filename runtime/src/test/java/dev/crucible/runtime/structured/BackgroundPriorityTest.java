package dev.crucible.runtime.structured;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class BackgroundPriorityTest {

    /** The nice value of the calling thread, field 19 of {@code /proc/thread-self/stat} (after the command's ')'). */
    private static int niceOfThisThread() throws IOException {
        String stat = Files.readString(Path.of("/proc/thread-self/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(fields[16]);
    }

    @Test
    void theCallingThreadAloneRunsAtTheLowestPriority() throws Exception {
        assumeTrue(System.getProperty("os.name", "").startsWith("Linux"), "Linux only");
        int before = niceOfThisThread();
        AtomicReference<Boolean> lowered = new AtomicReference<>();
        AtomicInteger nice = new AtomicInteger(-100);
        Thread thread = Thread.ofPlatform().start(() -> {
            lowered.set(BackgroundPriority.lowerCurrentThread());
            try {
                nice.set(niceOfThisThread());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        thread.join();
        assertTrue(lowered.get(), "setpriority succeeded");
        assertEquals(BackgroundPriority.NICE, nice.get());
        assertEquals(before, niceOfThisThread(), "the caller of the test keeps its priority");
    }
}
