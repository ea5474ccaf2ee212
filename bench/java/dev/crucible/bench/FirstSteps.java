package dev.crucible.bench;

import dev.crucible.engine.onnx.OnnxEngineProvider;
import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.hf.folder.ModelFolder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A manual measurement, not a test: how a process's decode steps move over its life, and with what. Loads the onnx
 * engine on a model folder {@code loads} times one after another in this one process; after each load it forwards a
 * 32-token prompt, then {@code steps} single-token steps, and prints each block of 25 steps' median step time with the
 * minor and major page faults and CPU time the process took meanwhile, and the CPU time of the kernel's DAMON memory
 * monitor ({@code kdamond}, where one runs). The same work on the same weights, so a block slower than its neighbours
 * is the machine's; a load slower than the one before is new memory's: {@code java -jar crucible-bench-all.jar
 * first-steps DIR [STEPS] [LOADS]} ({@code bench/onnx phases}).
 */
final class FirstSteps {

    private static final int BLOCK = 25;

    private FirstSteps() {
    }

    static void run(Path dir, int steps, int loads) throws IOException {
        Optional<Path> monitor = kdamond();
        System.out.println("memory monitor: " + monitor.map(p -> "kdamond, " + p).orElse("none running"));
        for (int load = 1; load <= loads; load++) {
            long t0 = System.nanoTime();
            long[] before = counters(monitor);
            try (ModelRunner runner = new OnnxEngineProvider().loadModel(ModelFolder.read(dir))) {
                long[] loaded = counters(monitor);
                System.out.printf("load %d: %.2f s, faults minor %d major %d%n", load,
                        (System.nanoTime() - t0) / 1e9, loaded[0] - before[0], loaded[1] - before[1]);
                decode(runner, steps, monitor);
            }
        }
    }

    private static void decode(ModelRunner runner, int steps, Optional<Path> monitor) throws IOException {
        try (KvCache cache = runner.newCache(32 + steps + 1)) {
            int[] prompt = new int[32];
            for (int i = 0; i < prompt.length; i++) {
                prompt[i] = 100 + 37 * i;
            }
            long start = System.nanoTime();
            long[] f = counters(monitor);
            runner.forward(List.of(SequenceInput.of(cache, prompt)));
            long[] g = counters(monitor);
            System.out.printf("  prefill %.1f ms, faults minor %d major %d%n", (System.nanoTime() - start) / 1e6,
                    g[0] - f[0], g[1] - f[1]);
            List<Double> block = new ArrayList<>();
            long[] at = counters(monitor);
            for (int s = 0; s < steps; s++) {
                long begin = System.nanoTime();
                runner.forward(List.of(SequenceInput.of(cache, 7 + s)));
                block.add((System.nanoTime() - begin) / 1e6);
                if (block.size() == BLOCK) {
                    long[] now = counters(monitor);
                    block.sort(Double::compare);
                    System.out.printf("  steps %3d-%3d: median %.1f ms (min %.1f, max %.1f), faults minor %d major"
                            + " %d, cpu %.2f s, kdamond cpu %.2f s, load average %s%n", s - BLOCK + 1, s,
                            block.get(BLOCK / 2), block.getFirst(), block.getLast(), now[0] - at[0], now[1] - at[1],
                            (now[2] - at[2]) / 100.0, (now[3] - at[3]) / 100.0, loadAverage());
                    at = now;
                    block.clear();
                }
            }
        }
    }

    /** The kernel's DAMON thread's stat file, where one runs. */
    private static Optional<Path> kdamond() throws IOException {
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            return procs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .filter(p -> {
                        try {
                            return Files.readString(p.resolve("comm")).startsWith("kdamond");
                        } catch (IOException gone) {
                            return false;
                        }
                    })
                    .map(p -> p.resolve("stat")).findFirst();
        }
    }

    /**
     * Minor and major page faults and user+system CPU ticks of this process so far, and the CPU ticks of the memory
     * monitor (0 without one), from the {@code stat} files.
     */
    private static long[] counters(Optional<Path> monitor) throws IOException {
        long[] self = stat(Path.of("/proc/self/stat"));
        long monitorTicks = 0;
        if (monitor.isPresent()) {
            try {
                monitorTicks = stat(monitor.get())[2];
            } catch (IOException gone) {
                monitorTicks = 0;
            }
        }
        return new long[] {self[0], self[1], self[2], monitorTicks};
    }

    private static long[] stat(Path file) throws IOException {
        String stat = Files.readString(file);
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // fields after the name: state(0) ppid pgrp session tty tpgid flags minflt(7) cminflt majflt(9) cmajflt
        // utime(11) stime(12)
        return new long[] {Long.parseLong(f[7]), Long.parseLong(f[9]), Long.parseLong(f[11]) + Long.parseLong(f[12])};
    }

    private static String loadAverage() throws IOException {
        String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
        return f[0] + " " + f[1] + " " + f[2];
    }
}
