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

/**
 * The benchmark's Java entry point, driven by {@code bench/run} and {@code bench/train}:
 * <ul>
 *   <li>{@code model WORK SEED}: writes the random model into WORK unless it is there;</li>
 *   <li>{@code crucible WORK OUT PROMPT_TOKENS DECODE_TOKENS RUNS}: times Crucible's DJL engine, writes JSON to OUT
 *       and the prompt's ids to {@code WORK/prompt-ids.json} for the llama.cpp side;</li>
 *   <li>{@code report CRUCIBLE_JSONS LLAMA_JSONS}: prints the comparison table; each argument is a comma-separated
 *       list of result files (one per round), whose per-run arrays are concatenated;</li>
 *   <li>{@code train WORK OUT SEED TINY LARGE}: the training benchmark ({@link TrainBench}; the 0.5B model must be in
 *       {@code WORK/model}); writes JSON to OUT and prints the table;</li>
 *   <li>{@code train-report OUT}: prints that table again from the JSON.</li>
 * </ul>
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        switch (args.length == 0 ? "" : args[0]) {
            case "model" -> BenchModel.ensure(Path.of(args[1]), Long.parseLong(args[2]));
            case "crucible" -> {
                Path work = Path.of(args[1]);
                String loadStart = loadAverage();
                ObjectNode result = CrucibleDecode.run(BenchModel.hfDir(work), Integer.parseInt(args[3]),
                        Integer.parseInt(args[4]), Integer.parseInt(args[5]));
                result.put("loadavg_start", loadStart);
                result.put("loadavg_end", loadAverage());
                Files.writeString(Path.of(args[2]), HfJson.pretty(result));
                Files.writeString(work.resolve("prompt-ids.json"), HfJson.compact(result.get("prompt_ids")));
            }
            case "report" -> report(merged(args[1]), merged(args[2]));
            case "train" -> {
                ObjectNode result = TrainBench.run(Path.of(args[1]), Long.parseLong(args[3]), args[4], args[5]);
                Files.writeString(Path.of(args[2]), HfJson.pretty(result));
                TrainReport.print(result);
            }
            case "train-report" -> TrainReport.print(HfJson.read(Path.of(args[1])));
            default -> {
                System.err.println("usage: Main model WORK SEED | crucible WORK OUT P D R | report C.json,.. L.json,.. "
                        + "| train WORK OUT SEED TINY LARGE | train-report OUT");
                System.exit(2);
            }
        }
    }

    private static void report(JsonNode crucible, JsonNode llama) throws IOException {
        double cTtft = median(crucible.path("ttft_ms"));
        double lTtft = median(llama.path("ttft_ms"));
        double cTps = median(crucible.path("decode_tps"));
        double lTps = median(llama.path("decode_tps"));
        int runs = crucible.path("ttft_ms").size();
        System.out.println();
        System.out.println("Decode benchmark: random Qwen2.5-0.5B-shaped model (494 M params), F32 weights, batch 1, "
                + "greedy");
        System.out.println("  date      " + ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        System.out.println("  machine   " + cpuModel() + ", " + Runtime.getRuntime().availableProcessors()
                + " CPUs visible; both engines on 2 threads");
        System.out.println("  load avg  1-min load before each run: Crucible " + list(crucible.path("loadavg_runs"), 2)
                + ", llama.cpp " + list(llama.path("loadavg_runs"), 2) + "; at the end "
                + llama.path("loadavg_end").asText("?") + " (other builds on this machine count in it)");
        System.out.println("  workload  prompt " + crucible.path("prompt_ids").size() + " tokens, then "
                + (crucible.path("generated").size() - 1) + " decoded tokens; median of " + runs
                + " runs, alternating Crucible and llama.cpp, each process after 1 untimed warm-up");
        System.out.println("  crucible  " + crucible.path("engine").asText() + ", load "
                + String.format("%.1f s", crucible.path("load_s").asDouble()));
        System.out.println("  llama.cpp " + llama.path("engine").asText() + ", load "
                + String.format("%.1f s", llama.path("load_s").asDouble()) + ", KV cache "
                + llama.path("kv_cache").asText());
        System.out.println();
        String row = "| %-28s | %15s | %15s | %22s |%n";
        System.out.printf(row, "metric", "Crucible (DJL)", "llama.cpp", "ratio Crucible/llama");
        System.out.printf(row, "-".repeat(28), "-".repeat(15), "-".repeat(15), "-".repeat(22));
        System.out.printf(row, "time to first token (ms)", fmt(cTtft, 0), fmt(lTtft, 0),
                fmt(cTtft / lTtft, 2) + "x (lower=better)");
        System.out.printf(row, "decode (tokens/s)", fmt(cTps, 2), fmt(lTps, 2),
                fmt(cTps / lTps, 2) + "x (higher=better)");
        System.out.printf(row, "decode (ms/token)", fmt(1000 / cTps, 1), fmt(1000 / lTps, 1),
                fmt(lTps / cTps, 2) + "x (lower=better)");
        System.out.println();
        System.out.println("  per run: crucible ttft_ms " + list(crucible.path("ttft_ms"), 0) + " tok/s "
                + list(crucible.path("decode_tps"), 2));
        System.out.println("           llama.cpp ttft_ms " + list(llama.path("ttft_ms"), 0) + " tok/s "
                + list(llama.path("decode_tps"), 2));
        JsonNode cg = crucible.path("generated");
        JsonNode lg = llama.path("generated");
        int same = 0;
        while (same < Math.min(cg.size(), lg.size()) && cg.get(same).asInt() == lg.get(same).asInt()) {
            same++;
        }
        System.out.println("  same weights check: the first " + same + " of " + cg.size()
                + " greedy tokens are identical in both engines");
    }

    /** The first file's fields, with the per-run arrays of all files concatenated and the load averages listed. */
    private static JsonNode merged(String files) throws IOException {
        ObjectNode out = null;
        for (String f : files.split(",")) {
            JsonNode n = HfJson.read(Path.of(f));
            if (out == null) {
                out = ((ObjectNode) n).deepCopy();
                out.putArray("loadavg_runs");
            } else {
                for (String key : List.of("ttft_ms", "decode_tps")) {
                    ((ArrayNode) out.get(key)).addAll(
                            (ArrayNode) n.get(key));
                }
                out.put("loadavg_end", n.path("loadavg_end").asText());
            }
            ((ArrayNode) out.get("loadavg_runs"))
                    .add(n.path("loadavg_start").asText().split(" ")[0]);
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

    private static double median(JsonNode values) {
        List<Double> v = new ArrayList<>();
        values.forEach(n -> v.add(n.asDouble()));
        v.sort(Double::compare);
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }

    private static String list(JsonNode values, int decimals) {
        List<String> out = new ArrayList<>();
        values.forEach(n -> out.add(fmt(n.asDouble(), decimals)));
        return "[" + String.join(", ", out) + "]";
    }

    private static String fmt(double v, int decimals) {
        return String.format("%." + decimals + "f", v);
    }
}
