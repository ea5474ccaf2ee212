package dev.crucible.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.crucible.hf.HfJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Prints {@code bench/serve}'s table from the per-round JSON files of one run ({@code STAMP-serve-SIDE-N-ROUND.json}
 * for each side, the engines and {@code llama}, and {@code STAMP-serve-ENGINE-engine-ROUND.json} for each engine on
 * its own), with the load averages, and a last {@code serve:} line for scripts: per engine, one stream through the
 * server over the engine's own speed by time per token (the median over the pairs of the engine's decode step over
 * the stream's mean inter-token latency, each measured seconds apart) and over the server's own forwards while it ran
 * (from the server's step trace, {@code STAMP-serve-ENGINE-steps-ROUND-PAIR.txt}, where the run has them), and the
 * 8-stream aggregate (the most streams run) over llama.cpp's timed just after it (the median over rounds; llama.cpp's
 * files are {@code STAMP-serve-llama-N-ROUND-ENGINE.json}, ENGINE the one it followed), and for each side given a
 * stall round ({@code STAMP-serve-SIDE-stall-ROUND.json}, llama.cpp's too) the median of the running streams' worst
 * gap over their idle inter-token latency while a long prompt arrives.
 */
final class ServeReport {

    private ServeReport() {
    }

    static void print(Path dir, String stamp, List<String> engines, List<Integer> streams, List<String> stalled)
            throws IOException {
        System.out.println();
        System.out.println("Serving benchmark: random Qwen2.5-0.5B-shaped model (494 M params, F32), streaming chat "
                + "completions, greedy, every stream decoding the same number of tokens; 2 threads per engine");
        System.out.println("  date      " + ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        System.out.println("  machine   " + Main.cpuModel() + ", " + Runtime.getRuntime().availableProcessors()
                + " CPUs visible; load average now " + Main.loadAverage());
        String row = "| %-9s | %7s | %15s | %13s | %13s | %12s |%n";
        System.out.printf(row, "side", "streams", "aggregate tok/s", "ttft p50 ms", "ttft p95 ms", "itl p50 ms");
        System.out.printf(row, "-".repeat(9), "-".repeat(7), "-".repeat(15), "-".repeat(13), "-".repeat(13),
                "-".repeat(12));
        List<String> sides = new ArrayList<>(engines);
        sides.add("llama");
        for (String side : sides) {
            for (int n : streams) {
                List<JsonNode> runs = read(dir, stamp + "-serve-" + side + "-" + n + "-");
                System.out.printf(row, side, n, fmt(median(values(runs, "aggregate_tps"))),
                        fmt(percentile(values(runs, "ttft_ms"), 50)), fmt(percentile(values(runs, "ttft_ms"), 95)),
                        fmt(percentile(values(runs, "itl_ms"), 50)));
            }
        }
        StringBuilder line = new StringBuilder("serve:");
        int most = streams.getLast();
        for (String engine : engines) {
            List<JsonNode> alone = read(dir, stamp + "-serve-" + engine + "-engine-");
            List<JsonNode> one = read(dir, stamp + "-serve-" + engine + "-1-");
            List<Double> pairs = pairRatios(alone, one);
            List<Double> manyPairs = llamaPairRatios(dir, stamp, engine, most);
            System.out.println("  " + engine + " alone (bench/run's measure, each run just before one stream through "
                    + "the server): " + fmt(median(values(alone, "decode_tps"))) + " tok/s decode (median); load "
                    + "before each: " + loads(alone));
            System.out.println("  " + engine + " one stream through the server over the engine alone, pair by pair, by"
                    + " the engine's decode step over the stream's inter-token latency: "
                    + pairs.stream().map(ServeReport::fmt).toList() + " (by aggregate rate, which counts the time to "
                    + "first token: " + aggregateRatios(alone, one).stream().map(ServeReport::fmt).toList() + ")"
                    + clientCpu(one));
            line.append(' ').append(engine).append("-1/engine=").append(String.format("%.2f", median(pairs)));
            List<Double> forwards = forwardRatios(dir, stamp, engine, one);
            if (!forwards.isEmpty()) {
                System.out.println("  " + engine + " one stream through the server over the server's own forwards while"
                        + " it ran, pair by pair (the mean forward of its decode steps in the server's step trace "
                        + "over the stream's inter-token latency; one process, so what is left is the per-token path): "
                        + forwards.stream().map(ServeReport::fmt).toList());
                line.append(' ').append(engine).append("-1/forward=").append(String.format("%.2f", median(forwards)));
            }
            line.append(' ').append(engine).append('-').append(most).append("/llama-").append(most).append('=')
                    .append(String.format("%.2f", median(manyPairs)));
            System.out.println("  " + engine + " " + most + " streams over llama.cpp's " + most + " sequences timed just "
                    + "after them, per round: " + manyPairs.stream().map(ServeReport::fmt).toList()
                    + clientCpu(read(dir, stamp + "-serve-" + engine + "-" + most + "-")));
        }
        for (String engine : engines) {
            List<JsonNode> first = readIfAny(dir, stamp + "-serve-" + engine + "-first-");
            if (!first.isEmpty()) {
                List<Double> ratios = first.stream().map(r -> r.path("decode_tps").get(0).asDouble()
                        / r.path("decode_tps").get(r.path("decode_tps").size() - 1).asDouble()).toList();
                System.out.println("  " + engine + " a fresh server's first requests, one after another, decode tok/s: "
                        + first.stream().map(r -> values(List.of(r), "decode_tps").stream()
                        .map(ServeReport::fmt).toList()).toList() + "; first over last per round "
                        + ratios.stream().map(ServeReport::fmt).toList() + clientCpu(first));
                System.out.println("  " + engine + " their times to first token, ms (each prompt its own, none cached): "
                        + first.stream().map(r -> values(List.of(r), "ttft_ms").stream().map(ServeReport::fmt).toList())
                        .toList());
                line.append(' ').append(engine).append("-first/last=").append(String.format("%.2f", median(ratios)));
            }
        }
        for (String engine : engines) {
            List<JsonNode> rss = readIfAny(dir, stamp + "-serve-" + engine + "-rss-");
            if (!rss.isEmpty()) {
                List<Double> ratios = rss.stream().map(r -> r.path("idle_mb").asDouble() / r.path("before_mb").asDouble())
                        .toList();
                System.out.println("  " + engine + " server resident memory, MB before the burst / after it / after "
                        + rss.getFirst().path("idle_s").asInt() + " s quiet, per round: " + rss.stream().map(r ->
                        r.path("before_mb").asInt() + "/" + r.path("burst_mb").asInt() + "/" + r.path("idle_mb").asInt())
                        .toList());
                line.append(' ').append(engine).append("-rss/before=").append(String.format("%.2f", median(ratios)));
            }
        }
        if (!stalled.isEmpty()) {
            List<String> stallSides = new ArrayList<>(stalled);
            stallSides.add("llama");
            System.out.println("  stall rounds: streams running, one long prompt arriving (the streams' worst gap over"
                    + " their idle inter-token latency; the long prompt's time to first token with them and alone):");
            for (String side : stallSides) {
                List<JsonNode> runs = read(dir, stamp + "-serve-" + side + "-stall-");
                double stall = median(scalars(runs, "stall"));
                System.out.println("    " + side + ": " + runs.getFirst().path("streams").asInt() + " streams, "
                        + runs.getFirst().path("long_prompt_tokens").asInt() + "-token prompt: idle itl "
                        + fmt(median(scalars(runs, "idle_itl_ms"))) + " ms" + idleWorst(runs) + ", worst gap "
                        + fmt(median(scalars(runs, "worst_gap_ms"))) + " ms (" + fmt(stall) + "x; per round "
                        + scalars(runs, "stall").stream().map(ServeReport::fmt).toList() + "), ttft "
                        + fmt(median(scalars(runs, "ttft_stall_ms"))) + " ms with the streams, "
                        + fmt(median(scalars(runs, "ttft_alone_ms"))) + " ms alone; longest gaps "
                        + runs.getFirst().path("gaps_during_ms") + clientCpu(runs));
                line.append(' ').append(side).append("-stall/itl=").append(String.format("%.2f", stall));
                if (runs.getFirst().has("idle_worst_gap_ms")) {
                    // the machine's own floor under the stall figure: the streams' worst gap with no prompt at all
                    double idle = median(runs.stream().map(r -> r.path("idle_worst_gap_ms").asDouble()
                            / r.path("idle_itl_ms").asDouble()).toList());
                    line.append(' ').append(side).append("-idle/itl=").append(String.format("%.2f", idle));
                }
            }
        }
        System.out.println(line);
    }

    /**
     * The CPU time the bench's own client spent over each timed run (one figure, or one per request or round), where
     * it reports it: on a machine of few cores that time is taken from the server's.
     */
    private static String clientCpu(List<JsonNode> runs) {
        if (runs.isEmpty() || !runs.getFirst().has("client_cpu_ms")) {
            return "";
        }
        return "; the client's own CPU, ms: " + runs.stream().map(r -> r.path("client_cpu_ms").isArray()
                ? values(List.of(r), "client_cpu_ms").stream().map(ServeReport::fmt).toList().toString()
                : fmt(r.path("client_cpu_ms").asDouble())).toList();
    }

    /** The streams' worst idle gap before the long prompt, per round, where the client reports it. */
    private static String idleWorst(List<JsonNode> runs) {
        if (!runs.getFirst().has("idle_worst_gap_ms")) {
            return "";
        }
        return " (worst idle gap " + scalars(runs, "idle_worst_gap_ms").stream().map(ServeReport::fmt).toList()
                + " ms of " + runs.getFirst().path("idle_gaps").asInt() + ")";
    }

    /**
     * Each pair's one stream through the server over the engine alone just before it, by time per token: the
     * engine's decode step (its decode rate's inverse) over the stream's inter-token latency (from its first content
     * chunk to its last over the tokens between, {@code token_ms}). Not the stream's aggregate rate, which also counts
     * its time to first token (the 69-token prefill and the request's way in). {@code alone} and {@code one} hold one run each per pair, in the same order
     * (their file names end alike, in round and pair).
     */
    private static List<Double> pairRatios(List<JsonNode> alone, List<JsonNode> one) {
        if (alone.size() != one.size()) {
            throw new IllegalStateException(alone.size() + " runs of the engine alone for " + one.size()
                    + " one-stream runs through the server: they come in pairs");
        }
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < alone.size(); i++) {
            double stepMs = 1000 / alone.get(i).path("decode_tps").get(0).asDouble();
            ratios.add(stepMs / one.get(i).path("token_ms").get(0).asDouble());
        }
        return ratios;
    }

    /**
     * Per round, the engine's aggregate rate at {@code streams} streams over llama.cpp's at as many sequences, timed
     * just after it ({@code STAMP-serve-llama-N-ROUND-ENGINE.json}), so that both come from the same minute.
     */
    private static List<Double> llamaPairRatios(Path dir, String stamp, String engine, int streams)
            throws IOException {
        List<JsonNode> runs = read(dir, stamp + "-serve-" + engine + "-" + streams + "-");
        List<JsonNode> llama = readIfAny(dir, stamp + "-serve-llama-" + streams + "-", "-" + engine + ".json");
        List<JsonNode> served = runs;
        if (streams == 1 && !llama.isEmpty() && runs.size() > llama.size() && runs.size() % llama.size() == 0) {
            // one stream is timed in the pairs with the engine alone (STAMP-serve-ENGINE-1-ROUND-PAIR.json): llama.cpp
            // follows each round's last pair
            int perRound = runs.size() / llama.size();
            served = java.util.stream.IntStream.range(0, llama.size()).mapToObj(r -> runs.get((r + 1) * perRound - 1))
                    .toList();
        }
        if (served.size() != llama.size()) {
            throw new IllegalStateException(served.size() + " rounds of " + engine + " at " + streams + " streams for "
                    + llama.size() + " of llama.cpp after them: they come in pairs");
        }
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < served.size(); i++) {
            ratios.add(served.get(i).path("aggregate_tps").get(0).asDouble()
                    / llama.get(i).path("aggregate_tps").get(0).asDouble());
        }
        return ratios;
    }

    /** A decode-only step of one sequence in the server's step trace, and its forward's milliseconds. */
    private static final Pattern ONE_ROW_FORWARD =
            Pattern.compile("step: decoding 1, prompt 0 at \\d+, .*?forward ([0-9.]+) ms");

    /**
     * Each pair's one stream through the server over the server's own forwards while that stream ran: the mean
     * forward (a mean, as the stream's time per token and the engine alone's step are) of the trace's decode-only
     * steps of one sequence ({@code STAMP-serve-ENGINE-steps-ROUND-PAIR.txt}, the server's step trace over that
     * client's run: its untimed warm-up request, then the timed stream, whose steps are the last as many as its gaps)
     * over the stream's time per token. Both come from one process over the same seconds, so the two processes'
     * different speeds (this machine's pace differs between processes and moves in spells) stay out of it, and what
     * it leaves out of 1 is the per-token path: sampling, detokenizing, the chunk's way out. Empty when the run has
     * no traces.
     */
    private static List<Double> forwardRatios(Path dir, String stamp, String engine, List<JsonNode> one)
            throws IOException {
        List<Path> traces = named(dir, stamp + "-serve-" + engine + "-steps-", ".txt");
        if (traces.isEmpty()) {
            return List.of();
        }
        if (traces.size() != one.size()) {
            throw new IllegalStateException(traces.size() + " step traces for " + one.size() + " one-stream runs "
                    + "through the server: each run has its own");
        }
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < traces.size(); i++) {
            List<Double> forwardMs = new ArrayList<>();
            for (String line : Files.readAllLines(traces.get(i))) {
                Matcher m = ONE_ROW_FORWARD.matcher(line);
                if (m.find()) {
                    forwardMs.add(Double.parseDouble(m.group(1)));
                }
            }
            // the client's untimed warm-up request ran first in the same window: keep the timed stream's steps, the
            // last as many as its gaps between tokens
            int timed = one.get(i).path("itl_ms").size();
            if (forwardMs.size() < timed) {
                throw new IllegalStateException(traces.get(i).getFileName() + " holds " + forwardMs.size()
                        + " decode steps of one sequence for a stream of " + timed + " gaps");
            }
            double meanForwardMs = forwardMs.subList(forwardMs.size() - timed, forwardMs.size()).stream()
                    .mapToDouble(Double::doubleValue).average().orElseThrow();
            ratios.add(meanForwardMs / one.get(i).path("token_ms").get(0).asDouble());
        }
        return ratios;
    }

    /** As {@link #pairRatios}, by the stream's aggregate rate (tokens over the whole request's time). */
    private static List<Double> aggregateRatios(List<JsonNode> alone, List<JsonNode> one) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(alone.size(), one.size()); i++) {
            ratios.add(one.get(i).path("aggregate_tps").get(0).asDouble()
                    / alone.get(i).path("decode_tps").get(0).asDouble());
        }
        return ratios;
    }

    private static List<JsonNode> read(Path dir, String prefix) throws IOException {
        List<JsonNode> out = readIfAny(dir, prefix);
        if (out.isEmpty()) {
            throw new IllegalStateException("no results " + prefix + "*.json in " + dir);
        }
        return out;
    }

    private static List<JsonNode> readIfAny(Path dir, String prefix) throws IOException {
        return readIfAny(dir, prefix, "");
    }

    /** The JSON files {@link #named} lists, read. */
    private static List<JsonNode> readIfAny(Path dir, String prefix, String suffix) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (Path f : named(dir, prefix, suffix)) {
            out.add(HfJson.read(f));
        }
        return out;
    }

    /** The files of {@code dir} whose names start with {@code prefix} and end with {@code suffix}, in name order. */
    private static List<Path> named(Path dir, String prefix, String suffix) throws IOException {
        try (var files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith(prefix)
                    && p.getFileName().toString().endsWith(suffix)).sorted().toList();
        }
    }

    private static List<Double> values(List<JsonNode> runs, String field) {
        List<Double> v = new ArrayList<>();
        runs.forEach(r -> r.path(field).forEach(n -> v.add(n.asDouble())));
        return v;
    }

    /** One number per run: {@code field} of each. */
    private static List<Double> scalars(List<JsonNode> runs, String field) {
        return runs.stream().map(r -> r.path(field).asDouble()).toList();
    }

    private static String loads(List<JsonNode> runs) {
        return runs.stream().map(r -> r.path("loadavg_start").asText("?").split(" ")[0]).toList().toString();
    }

    private static double median(List<Double> v) {
        return percentile(v, 50);
    }

    /** The nearest-rank percentile. */
    private static double percentile(List<Double> v, int p) {
        if (v.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(v);
        sorted.sort(Double::compare);
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }

    private static String fmt(double v) {
        return String.format("%.2f", v);
    }
}
