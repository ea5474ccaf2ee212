package dev.crucible.engine.djl;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * Decides without loading any native code whether models can run on CUDA: the bundled libtorch must be a CUDA build
 * (its {@code native/lib/pytorch.properties} names a {@code cu*} flavor; the default CPU jar says {@code cpu}) and an
 * NVIDIA driver must be loaded ({@code /proc/driver/nvidia/version} exists).
 */
final class DjlGpuProbe {

    private static final String NATIVE_PROPERTIES = "native/lib/pytorch.properties";
    private static final Path NVIDIA_DRIVER = Path.of("/proc/driver/nvidia/version");

    private DjlGpuProbe() {
    }

    static boolean cudaUsable() {
        return bundledFlavor().startsWith("cu") && Files.exists(NVIDIA_DRIVER);
    }

    /** The flavor of the libtorch on the classpath ({@code cpu}, {@code cu128}, ...), or empty when none is. */
    static String bundledFlavor() {
        try (InputStream in = DjlGpuProbe.class.getClassLoader().getResourceAsStream(NATIVE_PROPERTIES)) {
            if (in == null) {
                return "";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("flavor", "");
        } catch (IOException e) {
            return "";
        }
    }
}
