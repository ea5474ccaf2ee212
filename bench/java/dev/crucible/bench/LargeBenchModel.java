package dev.crucible.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crucible.hf.HfJson;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.config.ModelConfigJson;
import dev.crucible.hf.config.RopeScaling;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * {@code bench/train}'s second real shape, Qwen2.5-1.5B (hidden 1536, 28 layers, 12 query heads over 2 key/value
 * heads, MLP 8960, vocabulary 151936, tied embeddings, q/k/v biases), as a Hugging Face folder with random F32 weights:
 * 1.5 billion values, 6.2 GB, streamed to the safetensors file tensor by tensor so the bench's heap never holds them.
 * Values are uniform with the standard deviations {@link BenchModel} draws from (training memory and speed do not
 * depend on the distribution); the tokenizer is the tiny Qwen2 model's. A {@code COMPLETE} marker holding the seed is
 * written last; when it is present with the same seed nothing is regenerated.
 */
final class LargeBenchModel {

    /** The hidden size and the layer count, which with the seed name a written model in its marker. */
    static final int HIDDEN = 1536;
    static final int LAYERS = 28;

    private record Tensor(String name, long[] shape, double std, double mean) {

        long size() {
            long n = 1;
            for (long d : shape) {
                n *= d;
            }
            return n;
        }
    }

    private LargeBenchModel() {
    }

    /** Writes the model's folder into {@code work} unless a complete one with this seed is there; returns the folder. */
    static Path ensure(Path work, long seed) throws IOException {
        Path hf = work.resolve("hf");
        String stamp = "seed=" + seed + " hidden=" + HIDDEN + " layers=" + LAYERS + " vocab=" + BenchModel.VOCAB + "\n";
        if (BenchFolder.complete(work, stamp)) {
            System.err.println("model: present in " + work + " (" + stamp.strip() + ")");
            return hf;
        }
        long t0 = System.nanoTime();
        ModelConfig c = BenchFolder.tinyTokenizer(work.resolve("tiny-qwen2"), hf, seed);
        // Qwen2.5-1.5B's shape: 12 query heads of 128 over 2 key/value heads, an MLP of 8960
        ModelConfig config = new ModelConfig(Architecture.QWEN2, HIDDEN, 8960, LAYERS, 12, 2, HIDDEN / 12,
                BenchModel.VOCAB, BenchModel.RMS_EPS, BenchModel.ROPE_THETA, new RopeScaling.Unscaled(),
                BenchModel.CONTEXT, true, false, c.bosTokenId(), c.eosTokenIds(), Optional.of("float32"));
        Path tmp = hf.resolve("model.safetensors.tmp");
        long bytes = write(tensors(config), tmp, seed);
        Files.move(tmp, hf.resolve("model.safetensors"), StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(hf.resolve("config.json"), ModelConfigJson.toJson(config));
        System.err.printf("model: wrote %s (%,d bytes) in %.1f s%n", hf, bytes, (System.nanoTime() - t0) / 1e9);
        BenchFolder.markComplete(work, stamp);
        return hf;
    }

    /** The tensors of a model of {@code c}'s shape, the one its config.json states. */
    private static List<Tensor> tensors(ModelConfig c) {
        int hidden = c.hiddenSize();
        int queries = c.numAttentionHeads() * c.headDim();
        int keys = c.numKeyValueHeads() * c.headDim();
        int mlp = c.intermediateSize();
        List<Tensor> t = new ArrayList<>();
        t.add(new Tensor("model.embed_tokens.weight", new long[] {c.vocabSize(), hidden}, BenchModel.EMBEDDING_STD,
                0));
        for (int i = 0; i < c.numHiddenLayers(); i++) {
            String p = "model.layers." + i + ".";
            t.add(norm(p + "input_layernorm.weight", 1.0));
            linear(t, p + "self_attn.q_proj", queries, hidden, true);
            linear(t, p + "self_attn.k_proj", keys, hidden, true);
            linear(t, p + "self_attn.v_proj", keys, hidden, true);
            linear(t, p + "self_attn.o_proj", hidden, queries, false);
            t.add(norm(p + "post_attention_layernorm.weight", 1.0));
            linear(t, p + "mlp.gate_proj", mlp, hidden, false);
            linear(t, p + "mlp.up_proj", mlp, hidden, false);
            linear(t, p + "mlp.down_proj", hidden, mlp, false);
        }
        t.add(norm("model.norm.weight", 4.0 / (Math.sqrt(hidden) * BenchModel.EMBEDDING_STD)));
        return t;
    }

    private static Tensor norm(String name, double scale) {
        return new Tensor(name, new long[] {HIDDEN}, scale * BenchModel.NORM_STD, scale);
    }

    private static void linear(List<Tensor> t, String name, int out, int in, boolean bias) {
        t.add(new Tensor(name + ".weight", new long[] {out, in}, 1.0 / Math.sqrt(in), 0));
        if (bias) {
            t.add(new Tensor(name + ".bias", new long[] {out}, BenchModel.BIAS_STD, 0));
        }
    }

    /** The safetensors file: header, then each tensor's values drawn and written a block at a time. */
    private static long write(List<Tensor> tensors, Path file, long seed) throws IOException {
        ObjectNode header = HfJson.object();
        header.putObject("__metadata__").put("format", "pt");
        long offset = 0;
        for (Tensor t : tensors) {
            ObjectNode entry = header.putObject(t.name());
            entry.put("dtype", "F32");
            var shape = entry.putArray("shape");
            for (long d : t.shape()) {
                shape.add(d);
            }
            entry.putArray("data_offsets").add(offset).add(offset + 4 * t.size());
            offset += 4 * t.size();
        }
        byte[] json = HfJson.compact(header).getBytes(StandardCharsets.UTF_8);
        int padded = (json.length + 7) / 8 * 8;
        ByteBuffer block = ByteBuffer.allocateDirect(1 << 22).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            block.putLong(padded).put(json);
            for (int i = json.length; i < padded; i++) {
                block.put((byte) ' ');
            }
            SplittableRandom random = new SplittableRandom(seed);
            for (Tensor t : tensors) {
                // Uniform on [mean - a, mean + a] with a = sqrt(3) std has that standard deviation.
                double a = Math.sqrt(3) * t.std();
                for (long n = 0; n < t.size(); n++) {
                    if (!block.hasRemaining()) {
                        drain(block, out);
                    }
                    block.putFloat((float) (t.mean() + a * (2 * random.nextDouble() - 1)));
                }
            }
            drain(block, out);
        }
        return 8L + padded + offset;
    }

    private static void drain(ByteBuffer block, FileChannel out) throws IOException {
        block.flip();
        while (block.hasRemaining()) {
            out.write(block);
        }
        block.clear();
    }
}
