package dev.crucible.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code bench/big}'s summary: Crucible's onnx engine at int4 on the 7B-shaped model against llama.cpp's Q4_0 of the
 * same weights, and the engine's memory: the peak while loading (VmHWM once the model is loaded), what stays resident
 * after loading and after serving (VmRSS), and the time to first token of the long prompt on both sides. Ends with
 * the line {@code big: 7b-int4/llama-q4_0=… load_peak_mb=… rss_mb=… ttft_ms=…/… 7b-int4/bound4=… llama-q4_0/bound=…}
 * for scripts. Each side's bound is the probe's read bandwidth over the weight bytes a token reads: the int4 graph's
 * ({@link BandwidthProbe#quantizedBytes}) and the GGUF file's less its Q4_0 token embedding, of which a token reads
 * one row.
 */
final class BigReport {

    private BigReport() {
    }

    /** Q4_0 stores 32 weights in 16 bytes of values and a 2-byte F16 scale. */
    private static final double Q4_0_BYTES_PER_WEIGHT = 18.0 / 32;

    static void print(JsonNode crucible, JsonNode llama, JsonNode bandwidth, Path gguf) throws IOException {
        double tps = Main.median(crucible.path("decode_tps"));
        double lTps = Main.median(llama.path("decode_tps"));
        double ttft = Main.median(crucible.path("ttft_ms"));
        double lTtft = Main.median(llama.path("ttft_ms"));
        double peak = crucible.path("load_peak_rss_mib").asDouble();
        double loaded = crucible.path("loaded_rss_mib").asDouble();
        double serving = crucible.path("serving_rss_mib").asDouble();
        System.out.println();
        System.out.println("7B benchmark: random Qwen2.5-7B-shaped model (BF16 shards), batch 1, greedy, prompt "
                + crucible.path("prompt_ids").size() + " tokens, " + (crucible.path("generated").size() - 1)
                + " decoded, 2 threads each");
        System.out.println("  crucible  " + crucible.path("engine").asText() + ", load "
                + String.format("%.1f s", crucible.path("load_s").asDouble()) + ", load average at the start "
                + crucible.path("loadavg_start").asText("?"));
        System.out.println("  llama.cpp " + llama.path("engine").asText() + ", load "
                + String.format("%.1f s", llama.path("load_s").asDouble()));
        System.out.printf("  memory    peak while loading %.0f MiB, resident after loading %.0f MiB (peak - final "
                + "%.0f MiB), resident after serving %.0f MiB%n", peak, loaded, peak - loaded, serving);
        System.out.printf("  decode    %.2f tok/s against llama.cpp Q4_0 %.2f tok/s; ttft %.0f ms against %.0f ms%n",
                tps, lTps, ttft, lTtft);
        double gbs = bandwidth.path("read_gbs").asDouble();
        double int4Bytes = bandwidth.path("weight_bytes_per_token_int4").asDouble();
        double ggufBytes = Files.size(gguf) - (double) BigModel.VOCAB * BigModel.HIDDEN * Q4_0_BYTES_PER_WEIGHT;
        double bound = gbs * 1e9 / int4Bytes;
        double lBound = gbs * 1e9 / ggufBytes;
        System.out.printf("  bound     read bandwidth %.1f GB/s; int4 graph %.2f GB a token (bound %.2f tok/s), Q4_0 "
                + "GGUF %.2f GB a token (bound %.2f tok/s)%n", gbs, int4Bytes / 1e9, bound, ggufBytes / 1e9, lBound);
        System.out.printf("big: 7b-int4/llama-q4_0=%.2f load_peak_mb=%.0f rss_mb=%.0f ttft_ms=%.0f/%.0f "
                + "7b-int4/bound4=%.2f llama-q4_0/bound=%.2f%n", tps / lTps, peak, serving, ttft, lTtft, tps / bound,
                lTps / lBound);
    }
}
