package dev.crucible.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crucible.hf.HfJson;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.config.ModelConfigJson;
import dev.crucible.hf.config.RopeScaling;
import dev.crucible.hf.tiny.TinyModel;
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

    static final int HIDDEN = 1536;
    static final int LAYERS = 28;
    static final int HEADS = 12;
    static final int KV_HEADS = 2;
    static final int INTERMEDIATE = 8960;
    static final int HEAD_DIM = HIDDEN / HEADS;

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
        Path marker = work.resolve("COMPLETE");
        String stamp = "seed=" + seed + " hidden=" + HIDDEN + " layers=" + LAYERS + " vocab=" + BenchModel.VOCAB + "\n";
        if (Files.exists(marker) && Files.readString(marker).equals(stamp)) {
            System.err.println("model: present in " + work + " (" + stamp.strip() + ")");
            return hf;
        }
        Files.deleteIfExists(marker);
        Files.createDirectories(hf);
        long t0 = System.nanoTime();
        Path tiny = work.resolve("tiny-qwen2");
        ModelConfig c = TinyModel.write(Architecture.QWEN2, tiny, seed).config();
        for (String name : List.of("tokenizer.json", "tokenizer_config.json", "generation_config.json")) {
            Files.copy(tiny.resolve(name), hf.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        }
        ModelConfig config = new ModelConfig(Architecture.QWEN2, HIDDEN, INTERMEDIATE, LAYERS, HEADS, KV_HEADS,
                HEAD_DIM, BenchModel.VOCAB, BenchModel.RMS_EPS, BenchModel.ROPE_THETA, new RopeScaling.Unscaled(),
                BenchModel.CONTEXT, true, false, c.bosTokenId(), c.eosTokenIds(), Optional.of("float32"));
        Path tmp = hf.resolve("model.safetensors.tmp");
        long bytes = write(tensors(), tmp, seed);
        Files.move(tmp, hf.resolve("model.safetensors"), StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(hf.resolve("config.json"), ModelConfigJson.toJson(config));
        System.err.printf("model: wrote %s (%,d bytes) in %.1f s%n", hf, bytes, (System.nanoTime() - t0) / 1e9);
        Files.writeString(marker, stamp);
        return hf;
    }

    private static List<Tensor> tensors() {
        List<Tensor> t = new ArrayList<>();
        t.add(new Tensor("model.embed_tokens.weight", new long[] {BenchModel.VOCAB, HIDDEN}, BenchModel.EMBEDDING_STD,
                0));
        for (int i = 0; i < LAYERS; i++) {
            String p = "model.layers." + i + ".";
            t.add(norm(p + "input_layernorm.weight", 1.0));
            linear(t, p + "self_attn.q_proj", HEADS * HEAD_DIM, HIDDEN, true);
            linear(t, p + "self_attn.k_proj", KV_HEADS * HEAD_DIM, HIDDEN, true);
            linear(t, p + "self_attn.v_proj", KV_HEADS * HEAD_DIM, HIDDEN, true);
            linear(t, p + "self_attn.o_proj", HIDDEN, HEADS * HEAD_DIM, false);
            t.add(norm(p + "post_attention_layernorm.weight", 1.0));
            linear(t, p + "mlp.gate_proj", INTERMEDIATE, HIDDEN, false);
            linear(t, p + "mlp.up_proj", INTERMEDIATE, HIDDEN, false);
            linear(t, p + "mlp.down_proj", HIDDEN, INTERMEDIATE, false);
        }
        t.add(norm("model.norm.weight", 4.0 / (Math.sqrt(HIDDEN) * BenchModel.EMBEDDING_STD)));
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
