package dev.crucible.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crucible.hf.HfJson;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.config.ModelConfigJson;
import dev.crucible.hf.config.RopeScaling;
import dev.crucible.hf.safetensors.DType;
import dev.crucible.hf.safetensors.SafetensorsReader;
import dev.crucible.hf.safetensors.SafetensorsWriter;
import dev.crucible.hf.safetensors.TensorInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * {@code bench/big}'s model: Qwen2.5-7B's shape (hidden 3584, 28 layers, 28 query heads over 4 key/value heads, MLP
 * 18944, vocabulary 152064, untied lm_head, q/k/v biases; 7.6 B parameters) with random weights, written as a Hugging
 * Face folder of BF16 safetensors shards ({@code hf/}: the embedding, one shard per layer, then the final norm and the
 * lm_head; about 15 GB) with {@code model.safetensors.index.json}, and a Q4_0 GGUF ({@code model-q4_0.gguf}) read
 * back from those shards, so llama.cpp runs the BF16 values Crucible reads. Each tensor's rows are drawn from their own
 * seeded generators (rows in parallel, one shard in memory at a time); the same seed gives the same bytes. The
 * tokenizer is the tiny Qwen2 model's, as in {@link BenchModel}. A {@code COMPLETE} marker is written last.
 */
final class BigModel {

    static final int HIDDEN = 3584;
    static final int LAYERS = 28;
    static final int HEADS = 28;
    static final int KV_HEADS = 4;
    static final int HEAD_DIM = HIDDEN / HEADS;
    static final int INTERMEDIATE = 18944;
    static final int VOCAB = 152064;
    static final int CONTEXT = 32768;

    private BigModel() {
    }

    static Path ggufQ4(Path work) {
        return work.resolve("model-q4_0.gguf");
    }

    /** Writes the model into {@code work} unless a complete one with this seed is there already. */
    static void ensure(Path work, long seed) throws IOException {
        String stamp = "seed=" + seed + " hidden=" + HIDDEN + " layers=" + LAYERS + " vocab=" + VOCAB + " bf16 q4_0\n";
        if (BenchFolder.complete(work, stamp)) {
            System.err.println("big: model present in " + work + " (" + stamp.strip() + ")");
            return;
        }
        long t0 = System.nanoTime();
        Path hf = BenchModel.hfDir(work);
        ModelConfig small = BenchFolder.tinyTokenizer(work.resolve("tiny-qwen2"), hf, seed);
        ModelConfig config = new ModelConfig(Architecture.QWEN2, HIDDEN, INTERMEDIATE, LAYERS, HEADS, KV_HEADS,
                HEAD_DIM, VOCAB, BenchModel.RMS_EPS, BenchModel.ROPE_THETA, new RopeScaling.Unscaled(), CONTEXT, false,
                false, small.bosTokenId(), small.eosTokenIds(), Optional.of("bfloat16"));
        BenchModel.Vocab vocab = BenchModel.Vocab.read(hf.resolve("tokenizer.json"),
                hf.resolve("tokenizer_config.json"), VOCAB);
        List<List<Tensor>> shards = shards(vocab.used());
        ObjectNode weightMap = HfJson.object();
        long total = 0;
        for (int s = 0; s < shards.size(); s++) {
            String file = String.format("model-%05d-of-%05d.safetensors", s + 1, shards.size());
            SafetensorsWriter writer = new SafetensorsWriter().metadata("format", "pt");
            for (Tensor t : shards.get(s)) {
                writer.add(t.hf(), DType.BF16, t.shape(), t.draw(seed));
                weightMap.put(t.hf(), file);
            }
            Path tmp = hf.resolve(file + ".tmp");
            total += writer.write(tmp);
            Files.move(tmp, hf.resolve(file), StandardCopyOption.REPLACE_EXISTING);
            System.err.printf("big: wrote %s (%d of %d, %,d bytes so far) at %.0f s%n", file, s + 1, shards.size(),
                    total, secondsSince(t0));
        }
        ObjectNode index = HfJson.object();
        index.putObject("metadata").put("total_size", total);
        index.set("weight_map", weightMap);
        Files.writeString(hf.resolve(SafetensorsReader.INDEX_FILE), HfJson.pretty(index));
        Files.writeString(hf.resolve("config.json"), ModelConfigJson.toJson(config));

        GgufWriter g = BenchModel.qwen2Header("crucible-bench-random-qwen2.5-7b", config, vocab);
        try (SafetensorsReader reader = SafetensorsReader.open(hf)) {
            for (List<Tensor> shard : shards) {
                for (Tensor t : shard) {
                    g.tensor(t.gguf(), t.shape(), (from, into) -> reader.readF32(t.hf(), from, into));
                }
            }
            Path tmp = work.resolve("model-q4_0.gguf.tmp");
            long bytes = g.write(tmp, GgufWriter.Type.Q4_0);
            Files.move(tmp, ggufQ4(work), StandardCopyOption.REPLACE_EXISTING);
            System.err.printf("big: wrote %s (%,d bytes) at %.0f s%n", ggufQ4(work), bytes, secondsSince(t0));
        }
        BenchFolder.markComplete(work, stamp);
    }

    /** One tensor: its names, shape and how its values are drawn (scale, and which ids of an embedding are used). */
    private record Tensor(String hf, String gguf, long[] shape, double std, double mean, int usedRows) {

        /** Row {@code r} from its own generator, so rows draw in parallel and the bytes do not depend on threads. */
        float[] draw(long seed) {
            int cols = (int) (shape.length == 2 ? shape[1] : shape[0]);
            int rows = shape.length == 2 ? (int) shape[0] : 1;
            float[] v = new float[rows * cols];
            long tensorSeed = seed * 31 + hf.hashCode();
            IntStream.range(0, Math.min(rows, usedRows)).parallel().forEach(r -> {
                SplittableRandom random = new SplittableRandom(tensorSeed * 1_000_003L + r);
                for (int c = 0; c < cols; c++) {
                    v[r * cols + c] = (float) (mean + std * random.nextGaussian());
                }
            });
            return v;
        }
    }

    /** The tensors in file order, grouped into shards: the embedding, each layer, then the final norm and head. */
    private static List<List<Tensor>> shards(int usedIds) {
        List<List<Tensor>> shards = new ArrayList<>();
        shards.add(List.of(new Tensor("model.embed_tokens.weight", "token_embd.weight", new long[] {VOCAB, HIDDEN},
                BenchModel.EMBEDDING_STD, 0, usedIds)));
        for (int i = 0; i < LAYERS; i++) {
            String p = "model.layers." + i + ".";
            String b = "blk." + i + ".";
            List<Tensor> layer = new ArrayList<>();
            layer.add(norm(p + "input_layernorm.weight", b + "attn_norm.weight", 1.0));
            linear(layer, p + "self_attn.q_proj", b + "attn_q", HEADS * HEAD_DIM, HIDDEN, true);
            linear(layer, p + "self_attn.k_proj", b + "attn_k", KV_HEADS * HEAD_DIM, HIDDEN, true);
            linear(layer, p + "self_attn.v_proj", b + "attn_v", KV_HEADS * HEAD_DIM, HIDDEN, true);
            linear(layer, p + "self_attn.o_proj", b + "attn_output", HIDDEN, HEADS * HEAD_DIM, false);
            layer.add(norm(p + "post_attention_layernorm.weight", b + "ffn_norm.weight", 1.0));
            linear(layer, p + "mlp.gate_proj", b + "ffn_gate", INTERMEDIATE, HIDDEN, false);
            linear(layer, p + "mlp.up_proj", b + "ffn_up", INTERMEDIATE, HIDDEN, false);
            linear(layer, p + "mlp.down_proj", b + "ffn_down", HIDDEN, INTERMEDIATE, false);
            shards.add(layer);
        }
        double finalScale = 4.0 / (Math.sqrt(HIDDEN) * BenchModel.EMBEDDING_STD);
        shards.add(List.of(norm("model.norm.weight", "output_norm.weight", finalScale),
                new Tensor("lm_head.weight", "output.weight", new long[] {VOCAB, HIDDEN}, 1.0 / Math.sqrt(HIDDEN), 0,
                        VOCAB)));
        return shards;
    }

    private static Tensor norm(String hf, String gguf, double scale) {
        return new Tensor(hf, gguf, new long[] {HIDDEN}, scale * BenchModel.NORM_STD, scale, 1);
    }

    private static void linear(List<Tensor> into, String hf, String gguf, int out, int in, boolean bias) {
        into.add(new Tensor(hf + ".weight", gguf + ".weight", new long[] {out, in}, 1.0 / Math.sqrt(in), 0, out));
        if (bias) {
            into.add(new Tensor(hf + ".bias", gguf + ".bias", new long[] {out}, BenchModel.BIAS_STD, 0, 1));
        }
    }

    private static double secondsSince(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }

    /** The BF16 bytes of every tensor, for the report. */
    static long bytes(Path work) throws IOException {
        try (SafetensorsReader reader = SafetensorsReader.open(BenchModel.hfDir(work))) {
            return reader.tensors().stream().mapToLong(TensorInfo::byteSize).sum();
        }
    }
}
