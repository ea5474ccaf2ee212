package dev.crucible.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crucible.hf.HfJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

/**
 * The benchmark's Java entry point, driven by {@code bench/run} and {@code bench/train}:
 * <ul>
 *   <li>{@code model WORK SEED}: writes the random model into WORK unless it is there;</li>
 *   <li>{@code big-model WORK SEED} and {@code big-report CRUCIBLE_JSONS LLAMA_JSONS BANDWIDTH_JSONS GGUF} (each
 *       list comma-separated, one file a round): {@code bench/big}'s 7B model ({@link BigModel}) and its summary
 *       ({@link BigReport});</li>
 *   <li>{@code crucible WORK OUT PROMPT_TOKENS DECODE_TOKENS RUNS [ENGINE]}: times one of Crucible's engines
 *       ({@code djl}, the default, {@code onnx}, {@code onnx-int4} or {@code onnx-int8}), writes JSON to OUT and the prompt's ids to
 *       {@code WORK/prompt-ids.json} for the llama.cpp side;</li>
 *   <li>{@code crucible-resident WORK PROMPT_TOKENS DECODE_TOKENS ENGINE}: keeps the engine loaded and times one run
 *       per line of standard input, the path to write its JSON to ({@link CrucibleDecode#resident});</li>
 *   <li>{@code bandwidth WORK OUT THREADS}: measures the memory read bandwidth and the model's weight bytes per token
 *       ({@link BandwidthProbe}), writes JSON to OUT;</li>
 *   <li>{@code serve-client URL KEY MODEL STREAMS TOKENS ROUNDS OUT}, {@code serve-first URL KEY MODEL REQUESTS
 *       TOKENS OUT} (a fresh server's first requests, one after another), {@code serve-stall URL KEY MODEL STREAMS
 *       REPEATS OUT} and {@code serve-report DIR STAMP ENGINES STREAMS [STALL_ENGINES]}: {@code bench/serve}'s client
 *       ({@link ServeClient}), its stall round ({@link ServeStall}) and table ({@link ServeReport});</li>
 *   <li>{@code report LLAMA_JSONS ENGINE=JSONS...}: prints the comparison table, one row per Crucible engine against
 *       llama.cpp, and a last {@code ratios:} line for scripts; each JSONS is a comma-separated list of result files
 *       (one per round), whose per-run arrays are concatenated; {@code bandwidth=JSONS} gives the bandwidth
 *       probes' files;</li>
 *   <li>{@code train WORK OUT SEED TINY LARGE}: the training benchmark ({@link TrainBench}; the 0.5B model must be in
 *       {@code WORK/model}); writes JSON to OUT and prints the table;</li>
 *   <li>{@code train-report OUT}: prints that table again from the JSON;</li>
 *   <li>{@code model-1.5b WORK SEED}: writes the Qwen2.5-1.5B-shaped model ({@link LargeBenchModel});</li>
 *   <li>{@code train-memory HF OUT SEED NAME SPEC}: one training workload alone in this process, for its peak
 *       resident memory; writes JSON to OUT;</li>
 *   <li>{@code train-profile HF TRACE SEED NAME SPEC}: one training workload with PyTorch's profiler on over its
 *       timed steps, written as a Chrome trace to TRACE ({@code bench/train-profile});</li>
 *   <li>{@code train-line TRAIN MEM...}: {@code bench/train}'s last line from its JSON files
 *       ({@link TrainReport#line});</li>
 *   <li>{@code onnx-f16} and {@code onnx-decode DIR ENGINE [BATCH] [LAYERS]}: {@code bench/onnx}'s measurements
 *       ({@link dev.crucible.engine.onnx.OnnxF16Probe}, {@link OnnxDecodeSpeed});</li>
 *   <li>{@code prompt-ids WORK PROMPT_TOKENS OUT}: the benchmark prompt's ids, as {@code crucible} writes them, for a
 *       llama.cpp side run without it;</li>
 *   <li>{@code first-steps DIR [STEPS] [LOADS]}: a process's decode steps over its life, over one or several loads
 *       of the model ({@link FirstSteps}, {@code bench/onnx phases}).</li>
 * </ul>
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        switch (args.length == 0 ? "" : args[0]) {
            case "model" -> BenchModel.ensure(Path.of(args[1]), Long.parseLong(args[2]));
            case "big-model" -> BigModel.ensure(Path.of(args[1]), Long.parseLong(args[2]));
            case "big-report" -> BigReport.print(jsons(args[1]), jsons(args[2]), jsons(args[3]), Path.of(args[4]));
            case "crucible" -> {
                Path work = Path.of(args[1]);
                String loadStart = loadAverage();
                ObjectNode result = CrucibleDecode.run(BenchModel.hfDir(work), Integer.parseInt(args[3]),
                        Integer.parseInt(args[4]), Integer.parseInt(args[5]), args.length > 6 ? args[6] : "djl");
                result.put("loadavg_start", loadStart);
                result.put("loadavg_end", loadAverage());
                Files.writeString(Path.of(args[2]), HfJson.pretty(result));
                Files.writeString(work.resolve("prompt-ids.json"), HfJson.compact(result.get("prompt_ids")));
            }
            case "first-prefill" -> FirstPrefill.run(BenchModel.hfDir(Path.of(args[1])));
            case "quant-error" -> {
                ObjectNode result = QuantError.run(BenchModel.hfDir(Path.of(args[1])), Integer.parseInt(args[3]),
                        Integer.parseInt(args[4]), List.of(args[5].split(" ")));
                result.put("loadavg", loadAverage());
                Files.writeString(Path.of(args[2]), HfJson.pretty(result));
                System.out.println(QuantError.line(result));
            }
            case "crucible-resident" -> CrucibleDecode.resident(BenchModel.hfDir(Path.of(args[1])),
                    Integer.parseInt(args[2]), Integer.parseInt(args[3]), args[4]);
            case "bandwidth" -> Files.writeString(Path.of(args[2]), HfJson.pretty(
                    BandwidthProbe.run(BenchModel.hfDir(Path.of(args[1])), Integer.parseInt(args[3]))));
            case "serve-client" -> {
                String loadStart = loadAverage();
                ObjectNode result = new ServeClient(args[1], args[2], args[3]).run(Integer.parseInt(args[4]),
                        Integer.parseInt(args[5]), Integer.parseInt(args[6]));
                result.put("loadavg_start", loadStart);
                Files.writeString(Path.of(args[7]), HfJson.pretty(result));
            }
            case "prompt-ids" -> {
                try (var tokenizer = dev.crucible.hf.tokenizer.Tokenizer.load(BenchModel.hfDir(Path.of(args[1]))
                        .resolve("tokenizer.json"))) {
                    ArrayNode ids = HfJson.array();
                    java.util.Arrays.stream(CrucibleDecode.promptIds(tokenizer, Integer.parseInt(args[2])))
                            .forEach(ids::add);
                    Files.writeString(Path.of(args[3]), HfJson.compact(ids));
                }
            }
            case "serve-first" -> {
                String loadStart = loadAverage();
                ObjectNode result = new ServeClient(args[1], args[2], args[3]).firstRequests(
                        Integer.parseInt(args[4]), Integer.parseInt(args[5]));
                result.put("loadavg_start", loadStart);
                Files.writeString(Path.of(args[6]), HfJson.pretty(result));
            }
            case "serve-stall" -> {
                String loadStart = loadAverage();
                ObjectNode result = ServeStall.run(new ServeClient(args[1], args[2], args[3]),
                        Integer.parseInt(args[4]), Integer.parseInt(args[5]));
                result.put("loadavg_start", loadStart);
                Files.writeString(Path.of(args[6]), HfJson.pretty(result));
            }
            case "serve-report" -> ServeReport.print(Path.of(args[1]), args[2], List.of(args[3].split(" ")),
                    java.util.Arrays.stream(args[4].split(" ")).map(Integer::valueOf).toList(),
                    args.length > 5 && !args[5].isBlank() ? List.of(args[5].split(" ")) : List.of());
            case "report" -> {
                java.util.Map<String, JsonNode> engines = new java.util.LinkedHashMap<>();
                for (int i = 2; i < args.length; i++) {
                    engines.put(args[i].substring(0, args[i].indexOf('=')),
                            merged(args[i].substring(args[i].indexOf('=') + 1)));
                }
                report(merged(args[1]), engines);
            }
            case "train" -> {
                ObjectNode result = TrainBench.run(Path.of(args[1]), Long.parseLong(args[3]), args[4], args[5]);
                Files.writeString(Path.of(args[2]), HfJson.pretty(result));
                TrainReport.print(result);
            }
            case "train-report" -> TrainReport.print(HfJson.read(Path.of(args[1])));
            case "model-1.5b" -> LargeBenchModel.ensure(Path.of(args[1]), Long.parseLong(args[2]));
            case "train-memory" -> {
                ObjectNode result = TrainThroughput.run(new dev.crucible.engine.djl.DjlEngineProvider(),
                        TrainBench.workload(args[4], Path.of(args[1]), args[5]), Long.parseLong(args[3]));
                result.put("loadavg_end", loadAverage());
                Files.writeString(Path.of(args[2]), HfJson.pretty(result));
                System.err.printf("train-memory: %s %s: peak resident memory %.0f MB%n", args[4], args[5],
                        result.path("peak_rss_bytes").asDouble() / 1e6);
            }
            case "train-profile" -> {
                ObjectNode result = TrainThroughput.run(new dev.crucible.engine.djl.DjlEngineProvider(),
                        TrainBench.workload(args[4], Path.of(args[1]), args[5]), Long.parseLong(args[3]),
                        Path.of(args[2]));
                System.err.printf("train-profile: %s %s: timed steps %s s, trace in %s%n", args[4], args[5],
                        result.path("step_s"), args[2]);
            }
            case "train-line" -> System.out.println(TrainReport.line(HfJson.read(Path.of(args[1])),
                    HfJson.read(Path.of(args[2])), HfJson.read(Path.of(args[3])), HfJson.read(Path.of(args[4]))));
            case "first-steps" -> FirstSteps.run(Path.of(args[1]), args.length > 2 ? Integer.parseInt(args[2]) : 100,
                    args.length > 3 ? Integer.parseInt(args[3]) : 1);
            case "onnx-f16" -> dev.crucible.engine.onnx.OnnxF16Probe.main(new String[0]);
            case "onnx-kernels" -> dev.crucible.engine.onnx.OnnxKernelProbe.main(new String[0]);
            case "onnx-decode" -> OnnxDecodeSpeed.main(java.util.Arrays.copyOfRange(args, 1, args.length));
            default -> {
                System.err.println("usage: Main model WORK SEED | crucible WORK OUT P D R [ENGINE] | report L.json,.. E=C.json,.. "
                        + "| train WORK OUT SEED TINY LARGE | train-report OUT | model-1.5b WORK SEED "
                        + "| train-memory HF OUT SEED NAME SPEC | train-line TRAIN 05B_2x256 05B_8x256 15B_2x512 | onnx-f16 | onnx-decode DIR ENGINE [B] [L]");
                System.exit(2);
            }
        }
    }

    private static void report(JsonNode llama, java.util.Map<String, JsonNode> engines) throws IOException {
        double lTtft = median(llama.path("ttft_ms"));
        double lTps = median(llama.path("decode_tps"));
        JsonNode q4 = engines.remove("llama-q4_0");
        JsonNode q8 = engines.remove("llama-q8_0");
        Bound bound = Bound.of(engines.remove("bandwidth"));
        JsonNode first = engines.values().iterator().next();
        System.out.println();
        System.out.println("Decode benchmark: random Qwen2.5-0.5B-shaped model (494 M params), batch 1, greedy; llama.cpp "
                + "and Crucible's F32 engines on F32 weights, onnx-int4/-int8 on weights quantised at load against "
                + "llama.cpp's Q4_0/Q8_0 of the same weights");
        System.out.println("  date      " + ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        System.out.println("  machine   " + cpuModel() + ", " + Runtime.getRuntime().availableProcessors()
                + " CPUs visible; every engine on 2 threads");
        StringBuilder loads = new StringBuilder();
        engines.forEach((name, r) -> loads.append(name).append(' ').append(list(r.path("loadavg_runs"), 2)).append(", "));
        System.out.println("  load avg  1-min load before each run: " + loads + "llama.cpp "
                + list(llama.path("loadavg_runs"), 2) + "; at the end " + llama.path("loadavg_end").asText("?")
                + " (other work on this machine counts in it)");
        System.out.println("  workload  prompt " + first.path("prompt_ids").size() + " tokens, then "
                + (first.path("generated").size() - 1) + " decoded tokens; median of "
                + llama.path("ttft_ms").size() + " runs per engine, each Crucible engine beside llama.cpp's run of "
                + "its precision in every round, the order reversed every other round; each process after 1 untimed "
                + "warm-up; a ratio is the median over the rounds of that round's pair");
        engines.forEach((name, r) -> System.out.println("  " + String.format("%-9s ", name) + r.path("engine").asText()
                + ", load " + String.format("%.1f s", r.path("load_s").asDouble())));
        System.out.println("  llama.cpp " + llama.path("engine").asText() + ", load "
                + String.format("%.1f s", llama.path("load_s").asDouble()) + ", KV cache "
                + llama.path("kv_cache").asText());
        if (bound != null) {
            System.out.println("  bound     " + bound.describe());
        }
        System.out.println();
        String row = "| %-10s | %9s | %11s | %13s | %13s | %13s | %10s |%n";
        System.out.printf(row, "engine", "ttft (ms)", "decode tok/s", "ttft / llama", "tok/s / llama", "peak RSS MiB",
                "of bound");
        System.out.printf(row, "-".repeat(10), "-".repeat(9), "-".repeat(11), "-".repeat(13), "-".repeat(13),
                "-".repeat(13), "-".repeat(10));
        System.out.printf(row, "llama.cpp", fmt(lTtft, 0), fmt(lTps, 2), "1.00x", "1.00x", "-",
                share(llama.path("decode_tps"), bound, 32));
        for (int bits : new int[] {4, 8}) {
            JsonNode q = bits == 4 ? q4 : q8;
            if (q != null) {
                double qTtft = median(q.path("ttft_ms"));
                double qTps = median(q.path("decode_tps"));
                System.out.printf(row, "llama Q" + bits + "_0", fmt(qTtft, 0), fmt(qTps, 2),
                        fmt(pairedMedian(q.path("ttft_ms"), llama.path("ttft_ms")), 2) + "x",
                        fmt(pairedMedian(q.path("decode_tps"), llama.path("decode_tps")), 2) + "x", "-",
                        share(q.path("decode_tps"), bound, bits));
            }
        }
        StringBuilder ratios = new StringBuilder("ratios:");
        StringBuilder bounds = new StringBuilder();
        List<String> perRound = new ArrayList<>();
        for (var e : engines.entrySet()) {
            double ttft = median(e.getValue().path("ttft_ms"));
            double tps = median(e.getValue().path("decode_tps"));
            int bits = bits(e.getKey());
            System.out.printf(row, e.getKey(), fmt(ttft, 0), fmt(tps, 2),
                    fmt(pairedMedian(e.getValue().path("ttft_ms"), llama.path("ttft_ms")), 2) + "x",
                    fmt(pairedMedian(e.getValue().path("decode_tps"), llama.path("decode_tps")), 2) + "x",
                    fmt(e.getValue().path("peak_rss_mib").asDouble(Double.NaN), 0),
                    bound == null ? "-" : fmt(bound.share(e.getValue().path("decode_tps"), e.getKey()), 2) + "x");
            JsonNode same = bits == 4 ? q4 : bits == 8 ? q8 : llama;
            // the names issue 11 fixed for scripts: djl/llama-f32, onnx-f32/llama-f32, onnx-int4/llama-q4_0; and
            // issue 28's onnx-int8/llama-q8_0
            String name = e.getKey().equals("onnx") ? "onnx-f32" : e.getKey();
            if (same != null) {
                ratios.append(' ').append(name).append(bits == 32 ? "/llama-f32=" : "/llama-q" + bits + "_0=")
                        .append(fmt(pairedMedian(e.getValue().path("decode_tps"), same.path("decode_tps")), 2));
                perRound.add("  per round: " + e.getKey() + " over " + (bits == 32 ? "llama.cpp F32" : "llama Q" + bits
                        + "_0") + " beside it " + pairedRatios(e.getValue().path("decode_tps"), same.path("decode_tps"))
                        .stream().map(v -> fmt(v, 2)).toList());
            }
            if (bound != null && e.getKey().startsWith("onnx")) {
                bounds.append(' ').append(name).append(bits == 32 ? "/bound=" : "/bound" + bits + "=")
                        .append(fmt(bound.share(e.getValue().path("decode_tps"), e.getKey()), 2));
            }
        }
        ratios.append(bounds);
        System.out.println("  (ttft: lower is better; tok/s: higher is better; of bound: decode tok/s over the "
                + "memory-bandwidth bound of the bytes that engine's weights take per token, F32, int8 or int4)");
        System.out.println();
        for (var e : engines.entrySet()) {
            System.out.println("  per run: " + e.getKey() + " ttft_ms " + list(e.getValue().path("ttft_ms"), 0)
                    + " tok/s " + list(e.getValue().path("decode_tps"), 2));
        }
        System.out.println("           llama.cpp ttft_ms " + list(llama.path("ttft_ms"), 0) + " tok/s "
                + list(llama.path("decode_tps"), 2));
        if (q4 != null) {
            System.out.println("           llama Q4_0 ttft_ms " + list(q4.path("ttft_ms"), 0) + " tok/s "
                    + list(q4.path("decode_tps"), 2));
        }
        if (q8 != null) {
            System.out.println("           llama Q8_0 ttft_ms " + list(q8.path("ttft_ms"), 0) + " tok/s "
                    + list(q8.path("decode_tps"), 2));
        }
        perRound.forEach(System.out::println);
        JsonNode lg = llama.path("generated");
        for (var e : engines.entrySet()) {
            JsonNode cg = e.getValue().path("generated");
            int same = 0;
            while (same < Math.min(cg.size(), lg.size()) && cg.get(same).asInt() == lg.get(same).asInt()) {
                same++;
            }
            System.out.println("  same weights check: the first " + same + " of " + cg.size() + " greedy tokens of "
                    + e.getKey() + " are llama.cpp's F32" + (bits(e.getKey()) < 32 ? " (quantised weights may differ)" : ""));
        }
        System.out.println(ratios);
    }

    /**
     * Each round's value in {@code a} over the same round's in {@code b}: the two ran side by side in that round, so
     * the machine's drift between rounds, larger here than either engine's lead, cancels out of each ratio.
     */
    static List<Double> pairedRatios(JsonNode a, JsonNode b) {
        if (a.size() != b.size()) {
            throw new IllegalArgumentException(a.size() + " runs against " + b.size() + ": a ratio pairs one run "
                    + "of each side per round");
        }
        List<Double> out = new ArrayList<>();
        for (int r = 0; r < a.size(); r++) {
            out.add(a.get(r).asDouble() / b.get(r).asDouble());
        }
        return out;
    }

    /** The median over the rounds of {@link #pairedRatios}. */
    static double pairedMedian(JsonNode a, JsonNode b) {
        return MatmulProbe.median(pairedRatios(a, b));
    }

    private static String share(JsonNode tps, Bound bound, int bits) {
        return bound == null ? "-" : fmt(bound.share(tps, bits), 2) + "x";
    }

    /** The weight width an engine's name says: 4 for {@code …int4}, 8 for {@code …int8}, else 32 (F32). */
    private static int bits(String engine) {
        return engine.contains("int4") ? 4 : engine.contains("int8") ? 8 : 32;
    }

    /**
     * The decode bound of each round: that round's read bandwidth (the best pass of its probe) against the weights
     * a token reads, at F32, int8 or int4 ({@link BandwidthProbe#quantizedBytes}). The machine's bandwidth drifts by
     * more than the engines differ, so a decode rate is set against the bound of its own round, and the share is the
     * median over the rounds of those ratios.
     */
    private record Bound(List<Double> readGbs, long bytesPerToken, long int8Bytes, long int4Bytes, int threads,
            JsonNode byBlock) {

        static Bound of(JsonNode merged) {
            if (merged == null) {
                return null;
            }
            List<Double> gbs = new ArrayList<>();
            merged.path("read_gbs_runs").forEach(n -> gbs.add(n.asDouble()));
            return new Bound(gbs, merged.path("weight_bytes_per_token").asLong(),
                    merged.path("weight_bytes_per_token_int8").asLong(),
                    merged.path("weight_bytes_per_token_int4").asLong(), merged.path("threads").asInt(),
                    merged.path("weight_bytes_per_token_by_block"));
        }

        double tokensPerSecond(double gbs) {
            return tokensPerSecond(gbs, 32);
        }

        double tokensPerSecond(double gbs, int bits) {
            return gbs * 1e9 / (bits == 4 ? int4Bytes : bits == 8 ? int8Bytes : bytesPerToken);
        }

        /** The bound of an engine by its name: {@code onnx-int4-b128} reads int4 in blocks of 128. */
        double tokensPerSecond(double gbs, String engine) {
            int bits = bits(engine);
            int at = engine.lastIndexOf("-b");
            if (bits == 32 || at < 0) {
                return tokensPerSecond(gbs, bits);
            }
            return gbs * 1e9 / byBlock.path(bits + "-" + engine.substring(at + 2)).asLong();
        }

        /** The median over the rounds of each round's decode rate in {@code tps} over that round's bound at F32. */
        double share(JsonNode tps) {
            return share(tps, 32);
        }

        /** {@link #share(JsonNode)} against the bound of weights {@code bits} wide. */
        double share(JsonNode tps, int bits) {
            return share(tps, gbs -> tokensPerSecond(gbs, bits));
        }

        /** {@link #share(JsonNode)} against the bound of the weights the engine so named reads. */
        double share(JsonNode tps, String engine) {
            return share(tps, gbs -> tokensPerSecond(gbs, engine));
        }

        private double share(JsonNode tps, DoubleUnaryOperator boundOf) {
            if (tps.size() != readGbs.size()) {
                throw new IllegalArgumentException(tps.size() + " decode rates for " + readGbs.size() + " probes: "
                        + "the share pairs one run with one probe per round");
            }
            List<Double> shares = new ArrayList<>();
            for (int r = 0; r < readGbs.size(); r++) {
                shares.add(tps.get(r).asDouble() / boundOf.applyAsDouble(readGbs.get(r)));
            }
            return MatmulProbe.median(shares);
        }

        String describe() {
            double median = MatmulProbe.median(readGbs);
            return String.format("memory read bandwidth per round %s GB/s (best pass of each round's probe, %d "
                    + "threads); a token reads %.2f GB of F32 weights (%.2f GB at int8, %.2f GB at int4), so "
                    + "batch-1 decoding is bounded by %.1f tok/s at the median round (%.1f at int8, %.1f at int4); "
                    + "each run's share is of its own round's bound", readGbs.stream().map(g -> fmt(g, 1)).toList(),
                    threads, bytesPerToken / 1e9, int8Bytes / 1e9, int4Bytes / 1e9, tokensPerSecond(median),
                    tokensPerSecond(median, 8), tokensPerSecond(median, 4));
        }
    }

    /** The first file's fields, with the per-run arrays of all files concatenated and the load averages listed. */
    private static JsonNode merged(String files) throws IOException {
        ObjectNode out = null;
        for (String f : files.split(",")) {
            JsonNode n = HfJson.read(Path.of(f));
            if (out == null) {
                out = ((ObjectNode) n).deepCopy();
                out.putArray("loadavg_runs");
                out.putArray("read_gbs_runs");
            } else {
                for (String key : List.of("ttft_ms", "decode_tps")) {
                    if (n.has(key)) {
                        ((ArrayNode) out.get(key)).addAll((ArrayNode) n.get(key));
                    }
                }
                out.put("loadavg_end", n.path("loadavg_end").asText());
            }
            ((ArrayNode) out.get("loadavg_runs"))
                    .add(n.path("loadavg_start").asText().split(" ")[0]);
            if (n.has("read_gbs")) {
                ((ArrayNode) out.get("read_gbs_runs")).add(n.get("read_gbs").asDouble());
            }
        }
        return out;
    }

    static String loadAverage() throws IOException {
        String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
        return f[0] + " " + f[1] + " " + f[2];
    }

    static String cpuModel() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
            if (line.startsWith("model name")) {
                return line.substring(line.indexOf(':') + 1).strip();
            }
        }
        return "unknown CPU";
    }

    /** The JSON files of a comma-separated list, in its order. */
    private static List<JsonNode> jsons(String paths) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String path : paths.split(",")) {
            out.add(HfJson.read(Path.of(path)));
        }
        return out;
    }

    static double median(JsonNode values) {
        List<Double> v = new ArrayList<>();
        values.forEach(n -> v.add(n.asDouble()));
        return MatmulProbe.median(v);
    }

    static String list(JsonNode values, int decimals) {
        List<String> out = new ArrayList<>();
        values.forEach(n -> out.add(fmt(n.asDouble(), decimals)));
        return "[" + String.join(", ", out) + "]";
    }

    static String fmt(double v, int decimals) {
        return String.format("%." + decimals + "f", v);
    }
}
