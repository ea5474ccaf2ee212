package dev.crucible.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.hf.HfJson;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.tokenizer.Tokenizer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How far the onnx engine's quantised precisions are from its F32 logits on the bench model: F32 reads the benchmark
 * prompt and decodes {@code steps} tokens greedily; each engine name ({@code onnx-int4}, {@code onnx-int4-b32},
 * {@code onnx-int8}, ...) then reads the same prompt and is fed F32's tokens, so every position compares like with
 * like. Per engine: the relative RMS of the logit differences over all positions (their RMS over the RMS of F32's
 * logits), the largest |difference| as a share of the largest |F32 logit|, and how often the argmax agrees.
 */
final class QuantError {

    private QuantError() {
    }

    static ObjectNode run(Path hf, int promptTokens, int steps, List<String> engines) throws IOException {
        ModelFolder folder = ModelFolder.read(hf);
        int[] prompt;
        try (Tokenizer tokenizer = Tokenizer.load(folder.tokenizerJson())) {
            prompt = CrucibleDecode.promptIds(tokenizer, promptTokens);
        }
        List<float[]> reference = new ArrayList<>();
        int[] tokens = new int[steps];
        try (ModelRunner f32 = CrucibleDecode.engine("onnx-f32").loadModel(folder)) {
            logits(f32, prompt, steps, tokens, reference, true);
        }
        ObjectNode out = HfJson.object();
        out.put("prompt_tokens", promptTokens);
        out.put("positions", steps);
        ArrayNode rows = out.putArray("engines");
        for (String engine : engines) {
            List<float[]> got = new ArrayList<>();
            try (ModelRunner runner = CrucibleDecode.engine(engine).loadModel(folder)) {
                logits(runner, prompt, steps, tokens, got, false);
            } finally {
                System.clearProperty("crucible.onnx.blockSize");
            }
            rows.add(compare(engine, reference, got));
        }
        return out;
    }

    /** The logits after the prompt and after each of {@code tokens}; {@code greedy} fills {@code tokens} as it goes. */
    private static void logits(ModelRunner runner, int[] prompt, int steps, int[] tokens, List<float[]> into,
            boolean greedy) {
        try (KvCache cache = runner.newCache(prompt.length + steps + 1)) {
            float[] last = runner.forward(List.of(SequenceInput.of(cache, prompt))).getFirst().last().clone();
            for (int i = 0; i < steps; i++) {
                into.add(last);
                if (greedy) {
                    tokens[i] = CrucibleDecode.argmax(last);
                }
                last = runner.forward(List.of(SequenceInput.of(cache, tokens[i]))).getFirst().last().clone();
            }
        }
    }

    private static ObjectNode compare(String engine, List<float[]> expected, List<float[]> actual) {
        Sums sums = new Sums();
        for (int p = 0; p < expected.size(); p++) {
            sums.add(expected.get(p), actual.get(p));
        }
        ObjectNode row = HfJson.object();
        row.put("engine", engine);
        row.put("relative_rms", Math.sqrt(sums.squaredDiff / sums.squared));
        row.put("max_abs_share", sums.maxDiff / sums.maxLogit);
        row.put("max_abs", sums.maxDiff);
        row.put("argmax_agreement", (double) sums.agree / expected.size());
        return row;
    }

    /** Running sums over the positions compared: squares of differences and of F32's logits, maxima, agreements. */
    private static final class Sums {
        double squaredDiff;
        double squared;
        double maxDiff;
        double maxLogit;
        int agree;

        void add(float[] e, float[] a) {
            for (int v = 0; v < e.length; v++) {
                double d = a[v] - e[v];
                squaredDiff += d * d;
                squared += (double) e[v] * e[v];
                maxDiff = Math.max(maxDiff, Math.abs(d));
                maxLogit = Math.max(maxLogit, Math.abs(e[v]));
            }
            agree += CrucibleDecode.argmax(e) == CrucibleDecode.argmax(a) ? 1 : 0;
        }
    }

    /** {@code quant-error: onnx-int4=<relative RMS>/<max share>/<argmax agreement> ...}, percent, percent, share. */
    static String line(ObjectNode result) {
        StringBuilder line = new StringBuilder("quant-error:");
        result.path("engines").forEach(e -> line.append(String.format(java.util.Locale.ROOT, " %s=%.1f%%/%.1f%%/%.2f",
                e.path("engine").asText(), 100 * e.path("relative_rms").asDouble(),
                100 * e.path("max_abs_share").asDouble(), e.path("argmax_agreement").asDouble())));
        return line.toString();
    }
}
