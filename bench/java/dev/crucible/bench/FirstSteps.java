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

/**
 * A manual measurement, not a test: how a fresh process's first decode steps compare with its later ones, and what
 * page faults go with them. Loads the onnx engine on a model folder, forwards a 32-token prompt, then {@code steps}
 * single-token steps, and prints each block of 10 steps' median step time with the minor and major page faults and
 * CPU time the process took meanwhile: {@code java -jar crucible-bench-all.jar first-steps DIR [STEPS]}.
 */
final class FirstSteps {

    private FirstSteps() {
    }

    static void run(Path dir, int steps) throws IOException {
        long t0 = System.nanoTime();
        long[] before = faults();
        try (ModelRunner runner = new OnnxEngineProvider().loadModel(ModelFolder.read(dir))) {
            long[] loaded = faults();
            System.out.printf("load %.2f s, faults minor %d major %d%n", (System.nanoTime() - t0) / 1e9,
                    loaded[0] - before[0], loaded[1] - before[1]);
            try (KvCache cache = runner.newCache(32 + steps + 1)) {
                int[] prompt = new int[32];
                for (int i = 0; i < prompt.length; i++) {
                    prompt[i] = 100 + 37 * i;
                }
                long start = System.nanoTime();
                long[] f = faults();
                runner.forward(List.of(SequenceInput.of(cache, prompt)));
                long[] g = faults();
                System.out.printf("prefill %.1f ms, faults minor %d major %d%n", (System.nanoTime() - start) / 1e6,
                        g[0] - f[0], g[1] - f[1]);
                List<Double> block = new ArrayList<>();
                long[] at = faults();
                for (int s = 0; s < steps; s++) {
                    long begin = System.nanoTime();
                    runner.forward(List.of(SequenceInput.of(cache, 7 + s)));
                    block.add((System.nanoTime() - begin) / 1e6);
                    if (block.size() == 10) {
                        long[] now = faults();
                        block.sort(Double::compare);
                        System.out.printf("steps %3d-%3d: median %.1f ms (min %.1f, max %.1f), faults minor %d major"
                                + " %d, cpu %.2f s%n", s - 9, s, block.get(5), block.getFirst(), block.getLast(),
                                now[0] - at[0], now[1] - at[1], (now[2] - at[2]) / 100.0);
                        at = now;
                        block.clear();
                    }
                }
            }
        }
    }

    /** Minor and major page faults and user+system CPU ticks of this process so far (/proc/self/stat). */
    private static long[] faults() throws IOException {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // fields after the name: state(0) ppid pgrp session tty tpgid flags minflt(7) cminflt majflt(9) cmajflt
        // utime(11) stime(12)
        return new long[] {Long.parseLong(f[7]), Long.parseLong(f[9]), Long.parseLong(f[11]) + Long.parseLong(f[12])};
    }
}
