package dev.crucible.server.wiring;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code process_resident_memory_bytes}: the process's resident memory (Linux's {@code VmRSS}), which the JVM's own
 * meters miss: mapped model weights and the engines' native memory live outside the heap. NaN where
 * {@code /proc/self/status} cannot be read.
 */
@Singleton
final class ProcessMemoryMeters implements MeterBinder {

    private static final Path STATUS = Path.of("/proc/self/status");

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("process.resident.memory", ProcessMemoryMeters::residentBytes).baseUnit("bytes")
                .description("Resident memory of the process (VmRSS)").register(registry);
    }

    static double residentBytes() {
        try {
            for (String line : Files.readAllLines(STATUS)) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024.0;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or /proc hidden: no figure rather than a wrong one
        }
        return Double.NaN;
    }
}
