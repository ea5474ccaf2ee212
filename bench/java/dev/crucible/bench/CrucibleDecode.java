package dev.crucible.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crucible.engine.spi.EngineProvider;
import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.hf.tokenizer.Tokenizer;
import dev.crucible.hf.HfJson;
import dev.crucible.hf.folder.ModelFolder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.ServiceLoader;

/**
 * Times one of Crucible's engines ({@code djl}, {@code onnx}, or {@code onnx-int4} / {@code onnx-int8}: ONNX with
 * int4 or int8 weights quantised at load) the way the llama.cpp side is timed: batch 1, a fresh cache per run, greedy decoding.
 * Time to first token is the prefill of the prompt plus picking the first token; decode tokens/s is
 * {@code tokens / time} over the following {@code tokens} single-token forward passes (each followed by an argmax).
 * One untimed warm-up run comes first.
 */
final class CrucibleDecode {

    private CrucibleDecode() {
    }

    /** The benchmark prompt's ids: a fixed text through the model's tokenizer, cut to {@code promptTokens}. */
    static int[] promptIds(Tokenizer tokenizer, int promptTokens) {
        String text = """
                The quick brown fox jumps over the lazy dog while the committee reviews the quarterly report. \
                Meanwhile, engineers in the lab measure how quickly a small language model can read a prompt \
                and write the next words, one token at a time, on a modest two-core machine.""";
        StringBuilder sb = new StringBuilder(text);
        int[] ids = tokenizer.encode(sb.toString(), false);
        while (ids.length < promptTokens) {
            sb.append(' ').append(text);
            ids = tokenizer.encode(sb.toString(), false);
        }
        return Arrays.copyOf(ids, promptTokens);
    }

    /**
     * The engine named {@code engine}, found as the server finds it (ServiceLoader), with its precision set:
     * {@code onnx-int4}, or {@code onnx-int4-b128} for blocks of 128 ({@code -Dcrucible.onnx.blockSize}).
     */
    static EngineProvider engine(String engine) {
        String name = engine.startsWith("onnx-") ? "onnx" : engine;
        if (engine.startsWith("onnx-")) {
            String[] parts = engine.substring("onnx-".length()).split("-b", 2);
            System.setProperty("crucible.onnx.precision", parts[0]);
            if (parts.length == 2) {
                System.setProperty("crucible.onnx.blockSize", parts[1]);
            }
        }
        return ServiceLoader.load(EngineProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no engine '" + name + "' on the class path"));
    }

    /** This process's peak resident memory (VmHWM) in MiB. */
    static double peakRssMib() throws IOException {
        return status("VmHWM:");
    }

    /** This process's resident memory now (VmRSS) in MiB. */
    static double rssMib() throws IOException {
        return status("VmRSS:");
    }

    private static double status(String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith(field)) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
            }
        }
        return Double.NaN;
    }

    static ObjectNode run(Path hf, int promptTokens, int decodeTokens, int runs, String engine) throws Exception {
        try (Loaded loaded = Loaded.of(hf, promptTokens, decodeTokens, engine)) {
            return loaded.timed(decodeTokens, runs);
        }
    }

    /**
     * Keeps {@code engine} loaded and times one run for each line read from standard input, a path to write that
     * run's JSON to, answering each with a line {@code done} once the file is written; ends at the end of input.
     * {@code bench/serve} alternates these runs with requests through the server, so that each server measurement
     * has the engine's own speed from the seconds before it, on a machine whose speed drifts.
     */
    static void resident(Path hf, int promptTokens, int decodeTokens, String engine) throws Exception {
        try (Loaded loaded = Loaded.of(hf, promptTokens, decodeTokens, engine);
                var lines = new java.io.BufferedReader(new java.io.InputStreamReader(System.in,
                        java.nio.charset.StandardCharsets.UTF_8))) {
            System.out.println("ready");
            for (String out = lines.readLine(); out != null && !out.isBlank(); out = lines.readLine()) {
                String loadStart = Main.loadAverage();
                ObjectNode result = loaded.timed(decodeTokens, 1);
                result.put("loadavg_start", loadStart);
                Files.writeString(Path.of(out), HfJson.pretty(result));
                System.out.println("done");
            }
        }
    }

    /** An engine with a model loaded, the benchmark prompt, and how long loading took; warmed up once. */
    private record Loaded(String engine, ModelRunner runner, int[] prompt, double loadS, String detail,
            double loadPeakMib, double loadedRssMib) implements AutoCloseable {

        static Loaded of(Path hf, int promptTokens, int decodeTokens, String engine) throws IOException {
            EngineProvider provider = CrucibleDecode.engine(engine);
            ModelFolder folder = ModelFolder.read(hf);
            int[] prompt;
            try (Tokenizer tokenizer = Tokenizer.load(folder.tokenizerJson())) {
                prompt = promptIds(tokenizer, promptTokens);
            }
            long t0 = System.nanoTime();
            ModelRunner runner = provider.loadModel(folder);
            Loaded loaded = new Loaded(engine, runner, prompt, (System.nanoTime() - t0) / 1e9,
                    provider.health().detail(), peakRssMib(), rssMib());
            try {
                once(runner, prompt, Math.min(4, decodeTokens)); // warm-up, untimed
            } catch (RuntimeException e) {
                loaded.close();
                throw e;
            }
            return loaded;
        }

        ObjectNode timed(int decodeTokens, int runs) throws IOException {
            ObjectNode out = HfJson.object();
            out.put("engine", "Crucible engine-" + engine + " (" + detail + ")");
            out.put("threads", System.getProperty("ai.djl.pytorch.num_threads", "default"));
            out.put("load_s", loadS);
            ArrayNode ids = out.putArray("prompt_ids");
            Arrays.stream(prompt).forEach(ids::add);
            ArrayNode ttft = out.putArray("ttft_ms");
            ArrayNode tps = out.putArray("decode_tps");
            // each run's decode rate over its first and its second half of steps: a process that starts slow
            // (issue 28's slow first rounds) shows a first half below the second
            ArrayNode halves = out.putArray("decode_tps_halves");
            int[] generated = null;
            for (int r = 0; r < runs; r++) {
                Timing t = once(runner, prompt, decodeTokens);
                ttft.add(t.ttftMs());
                tps.add(t.decodeTps());
                halves.addArray().add(t.firstHalfTps()).add(t.secondHalfTps());
                generated = t.tokens();
                System.err.printf("crucible %s: run %d/%d: ttft %.0f ms  decode %.2f tok/s (halves %.2f, %.2f)%n",
                        engine, r + 1, runs, t.ttftMs(), t.decodeTps(), t.firstHalfTps(), t.secondHalfTps());
            }
            ArrayNode gen = out.putArray("generated");
            Arrays.stream(generated).forEach(gen::add);
            out.put("peak_rss_mib", peakRssMib());
            out.put("load_peak_rss_mib", loadPeakMib);
            out.put("loaded_rss_mib", loadedRssMib);
            out.put("serving_rss_mib", rssMib());
            return out;
        }

        @Override
        public void close() {
            runner.close();
        }
    }

    private record Timing(double ttftMs, double decodeTps, double firstHalfTps, double secondHalfTps,
            int[] tokens) {
    }

    /** Prefill, first token, then {@code decodeTokens} more; returns the first token and all generated ones. */
    private static Timing once(ModelRunner runner, int[] prompt, int decodeTokens) {
        int[] tokens = new int[decodeTokens + 1];
        try (KvCache cache = runner.newCache(prompt.length + decodeTokens + 1)) {
            long t0 = System.nanoTime();
            int next = argmax(runner.forward(java.util.List.of(SequenceInput.of(cache, prompt))).getFirst().last());
            long t1 = System.nanoTime();
            tokens[0] = next;
            int half = decodeTokens / 2;
            long tHalf = t1;
            for (int i = 1; i <= decodeTokens; i++) {
                next = argmax(runner.forward(java.util.List.of(SequenceInput.of(cache, next))).getFirst().last());
                tokens[i] = next;
                if (i == half) {
                    tHalf = System.nanoTime();
                }
            }
            long t2 = System.nanoTime();
            double tps = decodeTokens / ((t2 - t1) / 1e9);
            return half == 0 ? new Timing((t1 - t0) / 1e6, tps, tps, tps, tokens)
                    : new Timing((t1 - t0) / 1e6, tps, half / ((tHalf - t1) / 1e9),
                            (decodeTokens - half) / ((t2 - tHalf) / 1e9), tokens);
        }
    }

    static int argmax(float[] logits) {
        int best = 0;
        for (int i = 1; i < logits.length; i++) {
            if (logits[i] > logits[best]) {
                best = i;
            }
        }
        return best;
    }
}
