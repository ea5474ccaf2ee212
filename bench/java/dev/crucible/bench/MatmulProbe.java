package dev.crucible.bench;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.core.Linear;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crucible.hf.HfJson;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures what F32 matrix multiplication reaches on this CPU through the same PyTorch as the engine, with the same
 * call the engine's projections make ({@code torch.nn.functional.linear}, {@code x [m, k] @ W[n, k]^T}). Each shape
 * gets untimed warm-up calls (at least half a second), then the median of timed ones; a shape's rate is
 * {@code 2·m·k·n / time}. PyTorch on the CPU runs eagerly, so a call returns when the product is computed.
 */
final class MatmulProbe {

    private static final long WARMUP_NANOS = 500_000_000L;

    /** One product {@code [m, k] @ [k, n]}, named after the projection it stands for. */
    record MatmulShape(String name, int m, int k, int n) {

        double flops() {
            return 2.0 * m * k * n;
        }
    }

    private MatmulProbe() {
    }

    /** The products of a training step of a Qwen2-shaped model on {@code rows} tokens (the large ones). */
    static List<MatmulShape> shapesOf(int rows, int hidden, int intermediate, int vocab) {
        return List.of(
                new MatmulShape("q/o proj", rows, hidden, hidden),
                new MatmulShape("gate/up proj", rows, hidden, intermediate),
                new MatmulShape("down proj", rows, intermediate, hidden),
                new MatmulShape("lm_head", rows, hidden, vocab));
    }

    /**
     * Times each shape: untimed calls ({@code warmup} of them, and for at least half a second), then the median of
     * {@code runs}.
     *
     * @return {@code shapes: [{name, m, k, n, gflops_median, gflops_runs}]} and {@code best_gflops}
     */
    static ObjectNode measure(List<MatmulShape> shapes, int warmup, int runs) {
        ObjectNode out = HfJson.object();
        ArrayNode list = out.putArray("shapes");
        double best = 0;
        try (NDManager manager = Engine.getEngine("PyTorch").newBaseManager(Device.cpu())) {
            for (MatmulShape s : shapes) {
                try (NDManager m = manager.newSubManager()) {
                    NDArray x = m.randomNormal(new Shape(s.m(), s.k()));
                    NDArray w = m.randomNormal(0f, 1f / (float) Math.sqrt(s.k()), new Shape(s.n(), s.k()),
                            DataType.FLOAT32);
                    // Warm-up: at least `warmup` calls and half a second, so threads and caches are up.
                    long warmStart = System.nanoTime();
                    for (int i = 0; i < warmup || System.nanoTime() - warmStart < WARMUP_NANOS; i++) {
                        Linear.linear(x, w, null).close();
                    }
                    List<Double> gflops = new ArrayList<>();
                    for (int i = 0; i < runs; i++) {
                        long t0 = System.nanoTime();
                        Linear.linear(x, w, null).close();
                        gflops.add(s.flops() / (System.nanoTime() - t0));
                    }
                    double median = median(gflops);
                    best = Math.max(best, median);
                    ObjectNode row = list.addObject();
                    row.put("name", s.name());
                    row.put("m", s.m());
                    row.put("k", s.k());
                    row.put("n", s.n());
                    row.put("gflops_median", median);
                    ArrayNode all = row.putArray("gflops_runs");
                    gflops.forEach(all::add);
                    System.err.printf("matmul: %-13s [%d x %d] @ [%d x %d]  %.1f GFLOP/s (median of %d)%n", s.name(),
                            s.m(), s.k(), s.k(), s.n(), median, runs);
                }
            }
        }
        out.put("best_gflops", best);
        return out;
    }

    static double median(List<Double> values) {
        List<Double> v = new ArrayList<>(values);
        v.sort(Double::compare);
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }
}
