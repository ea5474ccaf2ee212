package dev.crucible.runtime.structured;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;

/**
 * Gives the calling thread the lowest CPU priority the OS offers a thread ({@code nice 19} on Linux, through
 * {@code setpriority(PRIO_PROCESS, gettid(), 19)}), so work a tenant can make expensive (a grammar's masks) runs on
 * what the machine's other threads leave idle instead of taking its share from them. Elsewhere, or where the call is
 * refused, the thread keeps its priority and {@link #lowerCurrentThread()} says so.
 */
final class BackgroundPriority {

    /** Linux's lowest priority. */
    static final int NICE = 19;
    private static final int PRIO_PROCESS = 0;

    private BackgroundPriority() {
    }

    /** Whether the calling thread now runs at {@link #NICE}. */
    static boolean lowerCurrentThread() {
        if (!System.getProperty("os.name", "").startsWith("Linux")) {
            return false;
        }
        try {
            Linker linker = Linker.nativeLinker();
            var libc = linker.defaultLookup();
            MethodHandle gettid = linker.downcallHandle(libc.find("gettid").orElseThrow(),
                    FunctionDescriptor.of(JAVA_INT));
            MethodHandle setpriority = linker.downcallHandle(libc.find("setpriority").orElseThrow(),
                    FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
            int tid = (int) gettid.invokeExact();
            return (int) setpriority.invokeExact(PRIO_PROCESS, tid, NICE) == 0;
        } catch (Throwable e) {
            return false; // no native access, or no such call: the thread keeps its priority
        }
    }
}
