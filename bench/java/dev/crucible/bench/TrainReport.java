package dev.crucible.bench;

import static dev.crucible.bench.Main.fmt;
import static dev.crucible.bench.Main.list;
import static dev.crucible.bench.Main.median;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * Prints the training benchmark's table from {@link TrainBench}'s JSON: per model the measured throughput, the bound
 * {@code matmul FLOP/s / (6 × parameters)} per token, and their ratio. Throughput is per step, the median over the
 * timed steps; the ratio compares all tokens of a step (every token goes through the forward and the backward, which
 * is what the FLOP count is per), while the headline is trainable tokens/s.
 */
final class TrainReport {

    private TrainReport() {
    }

    static void print(JsonNode r) {
        JsonNode tiny = r.path("tiny");
        JsonNode large = r.path("large");
        double gflops = r.path("best_gflops").asDouble();
        System.out.println();
        System.out.println("Training benchmark: LoRA r=" + TrainThroughput.RANK + " alpha="
                + (int) TrainThroughput.ALPHA + " on all seven projections (q k v o gate up down), base frozen, F32, "
                + "AdamW + clipping");
        System.out.println("  date      " + r.path("date").asText() + " (start), " + r.path("duration_s").asLong()
                + " s in all");
        System.out.println("  machine   " + r.path("cpu").asText() + ", " + r.path("cpus_visible").asInt()
                + " CPUs visible; PyTorch on " + r.path("threads").asText() + " threads");
        System.out.println("  load avg  1-min load at start " + first(r, "loadavg_start") + ", before tiny "
                + first(r, "loadavg_tiny") + ", before 0.5B " + first(r, "loadavg_large") + ", at the end "
                + r.path("loadavg_end").asText("?") + " (other work on this machine counts in it)");
        System.out.println("  engine    " + r.path("engine").asText());
        System.out.println("  workload  SFT-like steps on random token ids, every position after the first trained "
                + "(mean cross-entropy); each step = accumulate (forward+backward) + AdamW step;");
        System.out.println("            tiny: " + workload(tiny) + "; 0.5B: " + workload(large));
        System.out.println("  matmul    F32 torch linear [m x k] @ [k x n], median of " + TrainBench.MATMUL_RUNS
                + " after >= " + TrainBench.MATMUL_WARMUP + " warm-up calls and 0.5 s; before / after the training "
                + "(GFLOP/s):");
        JsonNode before = r.path("matmul_before").path("shapes");
        JsonNode after = r.path("matmul_after").path("shapes");
        for (int i = 0; i < before.size(); i++) {
            JsonNode s = before.get(i);
            System.out.printf("            %-13s [%d x %d] @ [%d x %d]  %7.1f / %7.1f%n", s.path("name").asText(),
                    s.path("m").asInt(), s.path("k").asInt(), s.path("k").asInt(), s.path("n").asInt(),
                    s.path("gflops_median").asDouble(), after.path(i).path("gflops_median").asDouble());
        }
        System.out.printf("            bound uses the best: %.1f GFLOP/s%n", gflops);
        System.out.println();
        String row = "| %-42s | %16s | %16s |%n";
        System.out.printf(row, "metric", tiny.path("model").asText(), large.path("model").asText());
        System.out.printf(row, "-".repeat(42), "-".repeat(16), "-".repeat(16));
        System.out.printf(row, "parameters P", count(tiny, "parameters"), count(large, "parameters"));
        System.out.printf(row, "LoRA trainable parameters", count(tiny, "trainable_parameters"),
                count(large, "trainable_parameters"));
        System.out.printf(row, "tokens per step (trainable)", tokens(tiny), tokens(large));
        System.out.printf(row, "step time, median (s)", fmt(stepS(tiny), 3), fmt(stepS(large), 2));
        System.out.printf(row, "  medians of forward+backward / AdamW (s)", split(tiny, 3), split(large, 2));
        System.out.printf(row, "trainable tokens/s (median step)", fmt(trainable(tiny), 0), fmt(trainable(large), 1));
        System.out.printf(row, "total tokens/s (median step)", fmt(total(tiny), 0), fmt(total(large), 1));
        System.out.printf(row, "trainable tokens/s of the fastest step", fmt(fastest(tiny), 0),
                fmt(fastest(large), 1));
        System.out.printf(row, "bound tokens/s = matmul FLOP/s / (6 P)", fmt(bound(tiny, gflops, 6), 0),
                fmt(bound(large, gflops, 6), 1));
        System.out.printf(row, "median / bound (total tokens)", pct(total(tiny) / bound(tiny, gflops, 6)),
                pct(total(large) / bound(large, gflops, 6)));
        System.out.printf(row, "median / LoRA's 4 P bound", pct(total(tiny) / bound(tiny, gflops, 4)),
                pct(total(large) / bound(large, gflops, 4)));
        System.out.printf(row, "effective GFLOP/s at 6 P per token", fmt(6 * p(tiny) * total(tiny) / 1e9, 2),
                fmt(6 * p(large) * total(large) / 1e9, 1));
        System.out.printf(row, "peak resident memory of the JVM (GB)", fmt(gb(tiny), 2), fmt(gb(large), 2));
        System.out.println();
        System.out.println("  FLOPs: the bound is the issue's convention, 6 x P x T per step (forward 2PT, backward "
                + "4PT for activation and weight gradients).");
        System.out.println("         LoRA with frozen base weights needs about 4 x P x T (no weight gradients for the "
                + "base; the rank-8 matrices add under 1%),");
        System.out.println("         so it could in principle run 1.5x above the 6P bound; attention's score and value "
                + "products are counted in neither.");
        System.out.println("  per step (s): tiny " + list(tiny.path("step_s"), 3) + ", 0.5B "
                + list(large.path("step_s"), 2));
        System.out.println("  loss over the timed steps: tiny " + lossRange(tiny) + ", 0.5B " + lossRange(large)
                + " (random tokens and weights: the loss is not the point)");
        for (JsonNode w : List.of(tiny, large)) {
            long bad = 0;
            for (JsonNode l : w.path("loss")) {
                bad += Double.isFinite(l.asDouble()) ? 0 : 1;
            }
            if (bad > 0) {
                System.out.println("  WARNING: " + w.path("model").asText() + ": " + bad + " timed steps had a loss "
                        + "that is not finite; the training is broken and its times mean little");
            }
        }
        System.out.println("  model load: tiny " + fmt(tiny.path("load_s").asDouble(), 2) + " s, 0.5B "
                + fmt(large.path("load_s").asDouble(), 2) + " s (weights memory-mapped; the warm-up step reads them "
                + "in)");
        System.out.println("  peak resident memory: per model, from loading to the end of its steps (heap, PyTorch's "
                + "native memory, mapped weights)");
    }

    /**
     * {@code bench/train}'s last line, for scripts: the 0.5B shape's median step against LoRA's 4·P bound (from the
     * throughput run), and the peak resident memory in MB of each memory run (each alone in a fresh process):
     * the 0.5B shape at 2 × 256 and 8 × 256, the 1.5B shape at 2 × 512.
     */
    static String line(JsonNode train, JsonNode small, JsonNode eight, JsonNode large) {
        JsonNode w = train.path("large");
        double ratio = total(w) / bound(w, train.path("best_gflops").asDouble(), 4);
        return String.format("train: 0.5b_bound4=%.2f 0.5b_rss_mb=%.0f 0.5b_8x256_rss_mb=%.0f 1.5b_rss_mb=%.0f", ratio,
                mb(small), mb(eight), mb(large));
    }

    private static double mb(JsonNode w) {
        return w.path("peak_rss_bytes").asDouble() / 1e6;
    }

    private static String workload(JsonNode w) {
        return w.path("sequences").asInt() + " x " + w.path("length").asInt() + " tokens per step, "
                + w.path("warmup_steps").asInt() + " warm-up + " + w.path("step_s").size() + " timed steps";
    }

    private static String first(JsonNode r, String field) {
        return r.path(field).asText("?").split(" ")[0];
    }

    private static double p(JsonNode w) {
        return w.path("parameters").asDouble();
    }

    private static double stepS(JsonNode w) {
        return median(w.path("step_s"));
    }

    private static double trainable(JsonNode w) {
        return w.path("trainable_tokens_per_step").asDouble() / stepS(w);
    }

    /** The fastest timed step: what the machine gives when other work leaves it alone for one step. */
    private static double fastest(JsonNode w) {
        double best = Double.POSITIVE_INFINITY;
        for (JsonNode s : w.path("step_s")) {
            best = Math.min(best, s.asDouble());
        }
        return w.path("trainable_tokens_per_step").asDouble() / best;
    }

    private static double total(JsonNode w) {
        return w.path("tokens_per_step").asDouble() / stepS(w);
    }

    private static double bound(JsonNode w, double gflops, int flopsPerParameter) {
        return gflops * 1e9 / (flopsPerParameter * p(w));
    }

    private static double gb(JsonNode w) {
        return w.path("peak_rss_bytes").asDouble() / (1L << 30);
    }

    private static String tokens(JsonNode w) {
        return w.path("tokens_per_step").asLong() + " (" + w.path("trainable_tokens_per_step").asLong() + ")";
    }

    private static String split(JsonNode w, int decimals) {
        return fmt(median(w.path("forward_backward_s")), decimals) + " / " + fmt(median(w.path("optimiser_s")),
                decimals);
    }

    private static String lossRange(JsonNode w) {
        JsonNode l = w.path("loss");
        return l.isEmpty() ? "?" : fmt(l.get(0).asDouble(), 3) + " -> " + fmt(l.get(l.size() - 1).asDouble(), 3);
    }

    private static String count(JsonNode w, String field) {
        return String.format("%,d", w.path(field).asLong());
    }

    private static String pct(double ratio) {
        return String.format("%.1f%%", 100 * ratio);
    }
}
