package dev.crucible.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * {@code bench/big}'s summary: Crucible's onnx engine at int4 on the 7B-shaped model against llama.cpp's Q4_0 of the
 * same weights, round by round (each round one process of each side, right beside each other, and a bandwidth probe),
 * and the engine's memory: the peak while loading (VmHWM once the model is loaded), what stays resident after loading
 * and after serving (VmRSS), and the time to first token of the long prompt on both sides. Ends with the line
 * {@code big: 7b-int4/llama-q4_0=… load_peak_mb=… rss_mb=… ttft_ms=…/… 7b-int4/bound4=… llama-q4_0/bound=…} for
 * scripts: the decode ratio and the shares of the bound are medians over the rounds of each round's own, the memory
 * figures the largest of any round, the times to first token medians. Each side's bound is the round's probe's read
 * bandwidth over the weight bytes a token reads: the int4 graph's ({@link BandwidthProbe#quantizedBytes}) and the
 * GGUF file's less its Q4_0 token embedding, of which a token reads one row.
 */
final class BigReport {

    private BigReport() {
    }

    /** Q4_0 stores 32 weights in 16 bytes of values and a 2-byte F16 scale. */
    private static final double Q4_0_BYTES_PER_WEIGHT = 18.0 / 32;

    /**
     * One round: each side's run and the probe after them; {@code ggufBytes} the weight bytes a llama.cpp token reads.
     * Every figure of a round, once, for the per-round lines and the medians over the rounds alike.
     */
    private record Round(JsonNode crucible, JsonNode llama, JsonNode bandwidth, double ggufBytes) {

        double tps() {
            return Main.median(crucible.path("decode_tps"));
        }

        double llamaTps() {
            return Main.median(llama.path("decode_tps"));
        }

        double ratio() {
            return tps() / llamaTps();
        }

        double ttft() {
            return Main.median(crucible.path("ttft_ms"));
        }

        double llamaTtft() {
            return Main.median(llama.path("ttft_ms"));
        }

        double gbs() {
            return bandwidth.path("read_gbs").asDouble();
        }

        double int4Bytes() {
            return bandwidth.path("weight_bytes_per_token_int4").asDouble();
        }

        /** Crucible's decode rate over the round's bound for the int4 graph's bytes. */
        double share() {
            return tps() * int4Bytes() / (gbs() * 1e9);
        }

        /** llama.cpp's decode rate over the round's bound for the GGUF's bytes. */
        double llamaShare() {
            return llamaTps() * ggufBytes / (gbs() * 1e9);
        }

        double peak() {
            return crucible.path("load_peak_rss_mib").asDouble();
        }

        double loaded() {
            return crucible.path("loaded_rss_mib").asDouble();
        }

        double serving() {
            return crucible.path("serving_rss_mib").asDouble();
        }
    }

    static void print(List<JsonNode> crucible, List<JsonNode> llama, List<JsonNode> bandwidth, Path gguf)
            throws IOException {
        if (crucible.size() != llama.size() || crucible.size() != bandwidth.size() || crucible.isEmpty()) {
            throw new IllegalArgumentException(crucible.size() + " Crucible runs, " + llama.size() + " llama.cpp runs "
                    + "and " + bandwidth.size() + " probes: a round holds one of each");
        }
        double ggufBytes = Files.size(gguf) - (double) BigModel.VOCAB * BigModel.HIDDEN * Q4_0_BYTES_PER_WEIGHT;
        List<Round> rounds = new ArrayList<>();
        for (int r = 0; r < crucible.size(); r++) {
            rounds.add(new Round(crucible.get(r), llama.get(r), bandwidth.get(r), ggufBytes));
        }
        double peak = max(rounds, Round::peak);
        double overFinal = max(rounds, r -> r.peak() - r.loaded());
        double serving = max(rounds, Round::serving);
        JsonNode first = rounds.getFirst().crucible;
        System.out.println();
        System.out.println("7B benchmark: random Qwen2.5-7B-shaped model (BF16 shards), batch 1, greedy, prompt "
                + first.path("prompt_ids").size() + " tokens, " + (first.path("generated").size() - 1)
                + " decoded, 2 threads each; " + rounds.size() + " round(s), each one process of each side right "
                + "beside the other (Crucible first in odd rounds, llama.cpp first in even ones), then the probe");
        System.out.println("  crucible  " + first.path("engine").asText() + ", load "
                + list(rounds, r -> r.crucible.path("load_s").asDouble(), "%.1f") + " s");
        System.out.println("  llama.cpp " + rounds.getFirst().llama.path("engine").asText() + ", load "
                + list(rounds, r -> r.llama.path("load_s").asDouble(), "%.1f") + " s");
        System.out.printf("  memory    the largest of any round: peak while loading %.0f MiB, peak over resident after "
                + "loading %.0f MiB, resident after serving %.0f MiB; per round, peak %s, after loading %s, after "
                + "serving %s MiB%n", peak, overFinal, serving, list(rounds, Round::peak, "%.0f"),
                list(rounds, Round::loaded, "%.0f"), list(rounds, Round::serving, "%.0f"));
        System.out.printf("  bound     int4 graph %.2f GB a token, Q4_0 GGUF %.2f GB a token; read bandwidth per "
                + "round %s GB/s%n", rounds.getFirst().int4Bytes() / 1e9, ggufBytes / 1e9,
                list(rounds, Round::gbs, "%.1f"));
        System.out.println("  per round: decode tok/s " + list(rounds, Round::tps, "%.2f") + " against llama.cpp Q4_0 "
                + list(rounds, Round::llamaTps, "%.2f") + ", ratio " + list(rounds, Round::ratio, "%.2f"));
        System.out.println("  per round: of the bound " + list(rounds, Round::share, "%.2f") + " against llama.cpp's "
                + list(rounds, Round::llamaShare, "%.2f") + "; ttft ms " + list(rounds, Round::ttft, "%.0f")
                + " against " + list(rounds, Round::llamaTtft, "%.0f"));
        System.out.printf("big: 7b-int4/llama-q4_0=%.2f load_peak_mb=%.0f rss_mb=%.0f ttft_ms=%.0f/%.0f "
                + "7b-int4/bound4=%.2f llama-q4_0/bound=%.2f%n", median(rounds, Round::ratio), peak, serving,
                median(rounds, Round::ttft), median(rounds, Round::llamaTtft), median(rounds, Round::share),
                median(rounds, Round::llamaShare));
    }

    private static double max(List<Round> rounds, ToDoubleFunction<Round> f) {
        return rounds.stream().mapToDouble(f).max().orElseThrow();
    }

    private static double median(List<Round> rounds, ToDoubleFunction<Round> f) {
        return MatmulProbe.median(rounds.stream().map(r -> f.applyAsDouble(r)).toList());
    }

    private static String list(List<Round> rounds, ToDoubleFunction<Round> f, String format) {
        return "[" + String.join(", ", rounds.stream().map(r -> String.format(format, f.applyAsDouble(r))).toList())
                + "]";
    }
}
