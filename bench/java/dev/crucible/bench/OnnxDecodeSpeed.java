package dev.crucible.bench;

import dev.crucible.engine.djl.DjlEngineProvider;
import dev.crucible.engine.onnx.OnnxEngineProvider;
import dev.crucible.engine.spi.EngineProvider;
import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.engine.spi.SequenceLogits;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.config.ModelConfigJson;
import dev.crucible.hf.config.RopeScaling;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.safetensors.DType;
import dev.crucible.hf.safetensors.SafetensorsWriter;
import dev.crucible.hf.tiny.TinyModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * A manual measurement, not a test: decode speed of one engine on a random Qwen2.5-0.5B-shaped F32 model (hidden 896,
 * 24 layers, 14/2 heads, MLP 4864, vocabulary 151936, tied, q/k/v biases). Run it in its own JVM per engine:
 * {@code bench/onnx decode <model dir> onnx|djl [batch] [layers]};
 * the model is written on first use. Prints load time, RSS after load, time to first token (32-token prompt) and the
 * median decode step over 48 steps, for one sequence and for {@code batch} sequences decoding together.
 */
final class OnnxDecodeSpeed {

    private static final int PROMPT = 32;
    private static final int STEPS = 48;

    private OnnxDecodeSpeed() {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        int batch = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        int layers = args.length > 3 ? Integer.parseInt(args[3]) : 24;
        ensureModel(dir, layers);
        EngineProvider engine = args[1].equals("djl") ? new DjlEngineProvider() : new OnnxEngineProvider();
        long t0 = System.nanoTime();
        try (ModelRunner runner = engine.loadModel(ModelFolder.read(dir))) {
            System.out.printf("%s: load %.1f s, %s%n", args[1], (System.nanoTime() - t0) / 1e9, rss());
            measure(args[1], runner, 1);
            measure(args[1], runner, batch);
            measure(args[1], runner, 1);
            System.out.printf("%s: after decoding, %s%n", args[1], rss());
        }
    }

    private static void measure(String name, ModelRunner runner, int batch) {
        Random random = new Random(batch);
        List<KvCache> caches = new ArrayList<>();
        int[] next = new int[batch];
        long t0 = System.nanoTime();
        for (int b = 0; b < batch; b++) {
            caches.add(runner.newCache(PROMPT + STEPS + 1));
            int[] prompt = random.ints(PROMPT, 0, 1000).toArray();
            next[b] = CrucibleDecode.argmax(runner.forward(List.of(SequenceInput.of(caches.get(b), prompt))).getFirst()
                    .last());
        }
        double ttft = (System.nanoTime() - t0) / 1e6 / batch;
        double[] steps = new double[STEPS];
        for (int s = 0; s < STEPS; s++) {
            List<SequenceInput> inputs = new ArrayList<>();
            for (int b = 0; b < batch; b++) {
                inputs.add(SequenceInput.of(caches.get(b), next[b]));
            }
            long s0 = System.nanoTime();
            List<SequenceLogits> out = runner.forward(inputs);
            steps[s] = (System.nanoTime() - s0) / 1e6;
            for (int b = 0; b < batch; b++) {
                next[b] = CrucibleDecode.argmax(out.get(b).last());
            }
        }
        caches.forEach(KvCache::close);
        double[] sorted = steps.clone();
        Arrays.sort(sorted);
        double median = sorted[STEPS / 2];
        System.out.printf("%s batch %d: first token %.0f ms, decode step median %.1f ms (min %.1f), %.2f tok/s"
                + " aggregate%n", name, batch, ttft, median, sorted[0], 1000.0 * batch / median);
    }

    private static String rss() throws IOException {
        StringBuilder out = new StringBuilder();
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS") || line.startsWith("VmHWM") || line.startsWith("RssAnon")
                    || line.startsWith("RssFile")) {
                out.append(line.replaceAll("\\s+", " ")).append("; ");
            }
        }
        return out.toString();
    }

    private static void ensureModel(Path dir, int layers) throws IOException {
        if (Files.exists(dir.resolve("config.json"))) {
            return;
        }
        Path tiny = dir.resolve("tiny");
        ModelConfig small = TinyModel.write(Architecture.QWEN2, tiny, 1).config();
        for (String name : List.of("tokenizer.json", "tokenizer_config.json", "generation_config.json")) {
            Files.copy(tiny.resolve(name), dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        }
        int hidden = 896;
        int heads = 14;
        int kv = 2;
        int mlp = 4864;
        int vocab = 151936;
        int hd = hidden / heads;
        ModelConfig config = new ModelConfig(Architecture.QWEN2, hidden, mlp, layers, heads, kv, hd, vocab, 1e-6,
                1_000_000.0, new RopeScaling.Unscaled(), 32768, true, false, small.bosTokenId(), small.eosTokenIds(),
                Optional.of("float32"));
        Random random = new Random(7);
        SafetensorsWriter st = new SafetensorsWriter().metadata("format", "pt");
        st.add("model.embed_tokens.weight", DType.F32, new long[] {vocab, hidden}, gaussian(random, vocab * hidden,
                0.05));
        for (int i = 0; i < layers; i++) {
            String p = "model.layers." + i + ".";
            st.add(p + "input_layernorm.weight", DType.F32, new long[] {hidden}, ones(hidden));
            linear(st, random, p + "self_attn.q_proj", heads * hd, hidden, true);
            linear(st, random, p + "self_attn.k_proj", kv * hd, hidden, true);
            linear(st, random, p + "self_attn.v_proj", kv * hd, hidden, true);
            linear(st, random, p + "self_attn.o_proj", hidden, heads * hd, false);
            st.add(p + "post_attention_layernorm.weight", DType.F32, new long[] {hidden}, ones(hidden));
            linear(st, random, p + "mlp.gate_proj", mlp, hidden, false);
            linear(st, random, p + "mlp.up_proj", mlp, hidden, false);
            linear(st, random, p + "mlp.down_proj", hidden, mlp, false);
        }
        st.add("model.norm.weight", DType.F32, new long[] {hidden}, ones(hidden));
        st.write(dir.resolve("model.safetensors"));
        Files.writeString(dir.resolve("config.json"), ModelConfigJson.toJson(config));
    }

    private static void linear(SafetensorsWriter st, Random random, String name, int out, int in, boolean bias) {
        st.add(name + ".weight", DType.F32, new long[] {out, in}, gaussian(random, out * in, 1 / Math.sqrt(in)));
        if (bias) {
            st.add(name + ".bias", DType.F32, new long[] {out}, gaussian(random, out, 0.2));
        }
    }

    private static float[] ones(int n) {
        float[] v = new float[n];
        Arrays.fill(v, 1f);
        return v;
    }

    private static float[] gaussian(Random random, int n, double std) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) (random.nextGaussian() * std);
        }
        return v;
    }
}
