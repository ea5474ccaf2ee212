package dev.crucible.engine.onnx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * ONNX Runtime starts in a JVM whose command line is long (a server started from a long class path): creating its
 * environment recurses over the command line, and on a Java thread's usual stack that killed the JVM with SIGSEGV and
 * no message. The test starts a JVM with a 64 kB argument that starts the runtime and prints its version.
 */
class OnnxLongCommandLineTest {

    @Test
    void startsInAJvmWithALongCommandLine() throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process child = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED",
                "-Dpadding=" + "p".repeat(64 * 1024), "-cp", System.getProperty("java.class.path"),
                StartRuntime.class.getName())).redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        child.waitFor(2, TimeUnit.MINUTES);
        assertEquals(0, child.exitValue(), "exit status; output: " + output);
    }

    /** The child's entry point: starts ONNX Runtime and exits. */
    static final class StartRuntime {

        public static void main(String[] args) {
            System.out.println(new OnnxRuntime().describe());
        }
    }
}
