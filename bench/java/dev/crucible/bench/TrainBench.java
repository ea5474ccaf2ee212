package dev.crucible.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crucible.bench.TrainThroughput.Workload;
import dev.crucible.engine.djl.DjlEngineProvider;
import dev.crucible.hf.HfJson;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.tiny.TinyModel;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The training benchmark in one process: the matmul rate of this CPU, LoRA training on the tiny Qwen3 model and on
 * the 0.5B-shaped model, the matmul rate again, so background load that changed during the run shows. The bound uses
 * the best matmul rate of either pass. Writes everything as one JSON file, which {@link TrainReport} prints.
 */
final class TrainBench {

    static final int MATMUL_WARMUP = 2;
    static final int MATMUL_RUNS = 5;

    private static final Pattern SPEC = Pattern.compile("(\\d+)x(\\d+):(\\d+)\\+(\\d+)");

    private TrainBench() {
    }

    /**
     * @param work  the bench's work folder (the 0.5B model in {@code model/hf}, the tiny one written to
     *              {@code tiny-qwen3})
     * @param tiny  the tiny model's workload as {@code SEQUENCESxLENGTH:WARMUP+STEPS}, e.g. {@code 8x256:3+20}
     * @param large the 0.5B model's workload, the same way
     */
    static ObjectNode run(Path work, long seed, String tiny, String large) throws Exception {
        ObjectNode out = HfJson.object();
        long t0 = System.nanoTime();
        out.put("date", ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        out.put("loadavg_start", Main.loadAverage());
        DjlEngineProvider engine = new DjlEngineProvider();
        out.put("engine", "Crucible engine-djl (" + engine.health().detail() + ")");
        out.put("threads", System.getProperty("ai.djl.pytorch.num_threads", "default"));
        out.put("cpu", Main.cpuModel());
        out.put("cpus_visible", Runtime.getRuntime().availableProcessors());
        out.put("seed", seed);
        Path tinyDir = work.resolve("tiny-qwen3");
        TinyModel.write(Architecture.QWEN3, tinyDir, seed);
        Workload small = workload("tiny Qwen3", tinyDir, tiny);
        Workload big = workload("0.5B-shaped", BenchModel.hfDir(work.resolve("model")), large);

        var shapes = MatmulProbe.shapesOf((int) big.tokens(), BenchModel.HIDDEN, BenchModel.INTERMEDIATE,
                BenchModel.VOCAB);
        out.set("matmul_before", MatmulProbe.measure(shapes, MATMUL_WARMUP, MATMUL_RUNS));
        out.put("loadavg_tiny", Main.loadAverage());
        out.set("tiny", TrainThroughput.run(engine, small, seed));
        out.put("loadavg_large", Main.loadAverage());
        out.set("large", TrainThroughput.run(engine, big, seed));
        out.put("loadavg_matmul_after", Main.loadAverage());
        out.set("matmul_after", MatmulProbe.measure(shapes, MATMUL_WARMUP, MATMUL_RUNS));
        out.put("loadavg_end", Main.loadAverage());
        out.put("duration_s", (System.nanoTime() - t0) / 1e9);
        out.put("best_gflops", Math.max(out.path("matmul_before").path("best_gflops").asDouble(),
                out.path("matmul_after").path("best_gflops").asDouble()));
        return out;
    }

    static Workload workload(String name, Path hf, String spec) {
        Matcher m = SPEC.matcher(spec);
        if (!m.matches() || Integer.parseInt(m.group(2)) < 2 || Integer.parseInt(m.group(4)) < 1) {
            throw new IllegalArgumentException("a workload is SEQUENCESxLENGTH:WARMUP+STEPS with length >= 2 and "
                    + "steps >= 1, e.g. 4x256:1+3; got " + spec);
        }
        return new Workload(name, hf, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)));
    }
}
