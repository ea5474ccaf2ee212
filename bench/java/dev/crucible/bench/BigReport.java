package dev.crucible.bench;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * {@code bench/big}'s summary: Crucible's onnx engine at int4 on the 7B-shaped model against llama.cpp's Q4_0 of the
 * same weights, and the engine's memory: the peak while loading (VmHWM once the model is loaded), what stays resident
 * after loading and after serving (VmRSS), and the time to first token of the long prompt on both sides. Ends with
 * the line {@code big: 7b-int4/llama-q4_0=… load_peak_mb=… rss_mb=… ttft_ms=…/…} for scripts.
 */
final class BigReport {

    private BigReport() {
    }

    static void print(JsonNode crucible, JsonNode llama) {
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
        System.out.printf("big: 7b-int4/llama-q4_0=%.2f load_peak_mb=%.0f rss_mb=%.0f ttft_ms=%.0f/%.0f%n",
                tps / lTps, peak, serving, ttft, lTtft);
    }
}
