package dev.crucible.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.crucible.hf.HfJson;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.config.ModelConfigJson;
import dev.crucible.hf.config.RopeScaling;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.safetensors.DType;
import dev.crucible.hf.safetensors.SafetensorsWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * The benchmark's model: Qwen2.5-0.5B's shape (hidden 896, 24 layers, 14 query heads over 2 key/value heads, MLP
 * 4864, vocabulary 151936, tied embeddings, q/k/v biases) with random F32 weights, written from the same arrays as a
 * Hugging Face folder ({@code hf/}) and a GGUF v3 F32 file ({@code model-f32.gguf}). The tokenizer is the tiny Qwen2
 * model's (byte-level BPE trained on hf-format's built-in corpus, about a thousand ids, with Qwen's added tokens and
 * chat template); the vocabulary is padded to 151936 and the embedding rows of the padding are zero. The same seed
 * gives the same bytes. A {@code COMPLETE} marker holding the seed is written last; when it is present with the same
 * seed nothing is regenerated.
 */
final class BenchModel {

    static final int HIDDEN = 896;
    static final int LAYERS = 24;
    static final int INTERMEDIATE = 4864;
    static final int VOCAB = 151936;
    static final double RMS_EPS = 1e-6;
    static final double ROPE_THETA = 1_000_000.0;
    static final int CONTEXT = 32768;

    /** Scales as in hf-format's tiny models, with the final norm scaled so logits have a standard deviation near 4. */
    static final double EMBEDDING_STD = 0.05;
    static final double FINAL_NORM_SCALE = 4.0 / (Math.sqrt(HIDDEN) * EMBEDDING_STD);
    static final double NORM_STD = 0.1;
    static final double BIAS_STD = 0.2;

    private record Tensor(String hfName, String ggufName, long[] shape, float[] values) {
    }

    private final Random random;
    private final List<Tensor> tensors = new ArrayList<>();

    private BenchModel(long seed) {
        this.random = new Random(seed);
    }

    static Path hfDir(Path work) {
        return work.resolve("hf");
    }

    static Path gguf(Path work) {
        return work.resolve("model-f32.gguf");
    }

    /** The same weights with every matrix in ggml's Q4_0, for llama.cpp's int4 side. */
    static Path ggufQ4(Path work) {
        return work.resolve("model-q4_0.gguf");
    }

    /** The same weights with every matrix in ggml's Q8_0, for llama.cpp's int8 side. */
    static Path ggufQ8(Path work) {
        return work.resolve("model-q8_0.gguf");
    }

    /**
     * Writes the model into {@code work} unless a complete one with this seed is there already; a complete one
     * without its Q8_0 file (written before there was one) gets that file only, from the same seed, so a folder whose
     * other files are links to a shared, read-only model is completed without touching them.
     */
    static void ensure(Path work, long seed) throws IOException {
        String stamp = "seed=" + seed + " hidden=" + HIDDEN + " layers=" + LAYERS + " vocab=" + VOCAB + " q4_0\n";
        if (BenchFolder.complete(work, stamp)) {
            if (!Files.exists(ggufQ8(work))) {
                writeQ8(work, seed);
            }
            System.err.println("model: present in " + work + " (" + stamp.strip() + ", q8_0)");
            return;
        }
        long t0 = System.nanoTime();
        Path hf = hfDir(work);
        ModelConfig config = config(BenchFolder.tinyTokenizer(work.resolve("tiny-qwen2"), hf, seed));
        Vocab vocab = Vocab.read(hf.resolve("tokenizer.json"), hf.resolve("tokenizer_config.json"));

        BenchModel m = new BenchModel(seed);
        m.draw(config, vocab.used());
        System.err.printf("model: drew %,d random weights in %.1f s%n", m.parameters(), secondsSince(t0));

        SafetensorsWriter st = new SafetensorsWriter().metadata("format", "pt");
        for (Tensor t : m.tensors) {
            st.add(t.hfName(), DType.F32, t.shape(), t.values());
        }
        Path stTmp = hf.resolve("model.safetensors.tmp");
        long stBytes = st.write(stTmp);
        Files.move(stTmp, hf.resolve("model.safetensors"), StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(hf.resolve("config.json"), ModelConfigJson.toJson(config));
        System.err.printf("model: wrote %s (%,d bytes) in %.1f s%n", hf, stBytes, secondsSince(t0));

        GgufWriter g = m.ggufHeader(vocab, config);
        Path ggTmp = work.resolve("model-f32.gguf.tmp");
        long ggBytes = g.write(ggTmp);
        Files.move(ggTmp, gguf(work), StandardCopyOption.REPLACE_EXISTING);
        System.err.printf("model: wrote %s (%,d bytes) in %.1f s%n", gguf(work), ggBytes, secondsSince(t0));
        Path q4Tmp = work.resolve("model-q4_0.gguf.tmp");
        long q4Bytes = g.write(q4Tmp, GgufWriter.Type.Q4_0);
        Files.move(q4Tmp, ggufQ4(work), StandardCopyOption.REPLACE_EXISTING);
        System.err.printf("model: wrote %s (%,d bytes) in %.1f s%n", ggufQ4(work), q4Bytes, secondsSince(t0));
        writeGguf(g, ggufQ8(work), GgufWriter.Type.Q8_0, t0);
        BenchFolder.markComplete(work, stamp);
    }

    /** The Q8_0 file of a complete model: the weights drawn again from the seed, the tokenizer read from hf/. */
    private static void writeQ8(Path work, long seed) throws IOException {
        long t0 = System.nanoTime();
        Path hf = hfDir(work);
        Vocab vocab = Vocab.read(hf.resolve("tokenizer.json"), hf.resolve("tokenizer_config.json"));
        ModelConfig config = ModelFolder.read(hf).config();
        BenchModel m = new BenchModel(seed);
        m.draw(config, vocab.used());
        writeGguf(m.ggufHeader(vocab, config), ggufQ8(work), GgufWriter.Type.Q8_0, t0);
    }

    private static void writeGguf(GgufWriter g, Path to, GgufWriter.Type type, long t0) throws IOException {
        Path tmp = to.resolveSibling(to.getFileName() + ".tmp");
        long bytes = g.write(tmp, type);
        Files.move(tmp, to, StandardCopyOption.REPLACE_EXISTING);
        System.err.printf("model: wrote %s (%,d bytes) in %.1f s%n", to, bytes, secondsSince(t0));
    }

    private long parameters() {
        return tensors.stream().mapToLong(t -> t.values().length).sum();
    }

    /**
     * The model's config: Qwen2.5-0.5B's shape (14 query heads of 64 over 2 key/value heads, tied embeddings) with the
     * tiny model's special-token ids.
     */
    private static ModelConfig config(ModelConfig tiny) {
        return new ModelConfig(Architecture.QWEN2, HIDDEN, INTERMEDIATE, LAYERS, 14, 2, HIDDEN / 14, VOCAB, RMS_EPS,
                ROPE_THETA, new RopeScaling.Unscaled(), CONTEXT, true, false, tiny.bosTokenId(), tiny.eosTokenIds(),
                Optional.of("float32"));
    }

    /** All tensors of a model of {@code c}'s shape, drawn in Hugging Face file order from one generator. */
    private void draw(ModelConfig c, int usedIds) {
        int hidden = c.hiddenSize();
        int queries = c.numAttentionHeads() * c.headDim();
        int keys = c.numKeyValueHeads() * c.headDim();
        int mlp = c.intermediateSize();
        float[] embed = gaussian(EMBEDDING_STD, c.vocabSize() * hidden);
        Arrays.fill(embed, usedIds * hidden, embed.length, 0f);
        add("model.embed_tokens.weight", "token_embd.weight", embed, c.vocabSize(), hidden);
        for (int i = 0; i < c.numHiddenLayers(); i++) {
            String p = "model.layers." + i + ".";
            String b = "blk." + i + ".";
            add(p + "input_layernorm.weight", b + "attn_norm.weight", norm(1.0, hidden), hidden);
            linear(p + "self_attn.q_proj", b + "attn_q", queries, hidden, true);
            linear(p + "self_attn.k_proj", b + "attn_k", keys, hidden, true);
            linear(p + "self_attn.v_proj", b + "attn_v", keys, hidden, true);
            linear(p + "self_attn.o_proj", b + "attn_output", hidden, queries, false);
            add(p + "post_attention_layernorm.weight", b + "ffn_norm.weight", norm(1.0, hidden), hidden);
            linear(p + "mlp.gate_proj", b + "ffn_gate", mlp, hidden, false);
            linear(p + "mlp.up_proj", b + "ffn_up", mlp, hidden, false);
            linear(p + "mlp.down_proj", b + "ffn_down", hidden, mlp, false);
        }
        add("model.norm.weight", "output_norm.weight", norm(FINAL_NORM_SCALE, hidden), hidden);
    }

    /** The GGUF of the drawn tensors, with {@code config}'s shape and special ids. */
    private GgufWriter ggufHeader(Vocab vocab, ModelConfig config) {
        GgufWriter g = qwen2Header("crucible-bench-random-qwen2.5-0.5b", config, vocab);
        for (Tensor t : tensors) {
            g.tensor(t.ggufName(), t.shape(), t.values());
        }
        return g;
    }

    /** The key/value pairs of a Qwen2 GGUF of {@code config}'s shape and special ids, with {@code vocab}. */
    static GgufWriter qwen2Header(String name, ModelConfig config, Vocab vocab) {
        int eos = config.eosTokenIds().getFirst();
        int bos = config.bosTokenId().orElse(eos);
        GgufWriter g = new GgufWriter()
                .string("general.architecture", "qwen2")
                .string("general.name", name)
                .u32("general.alignment", GgufWriter.ALIGNMENT)
                .u32("general.file_type", 0)
                .u32("qwen2.context_length", config.maxPositionEmbeddings())
                .u32("qwen2.embedding_length", config.hiddenSize())
                .u32("qwen2.block_count", config.numHiddenLayers())
                .u32("qwen2.feed_forward_length", config.intermediateSize())
                .u32("qwen2.attention.head_count", config.numAttentionHeads())
                .u32("qwen2.attention.head_count_kv", config.numKeyValueHeads())
                .f32("qwen2.rope.freq_base", (float) config.ropeTheta())
                .f32("qwen2.attention.layer_norm_rms_epsilon", (float) config.rmsNormEps())
                .string("tokenizer.ggml.model", "gpt2")
                .string("tokenizer.ggml.pre", "qwen2")
                .strings("tokenizer.ggml.tokens", vocab.tokens())
                .i32s("tokenizer.ggml.token_type", vocab.types())
                .strings("tokenizer.ggml.merges", vocab.merges())
                .u32("tokenizer.ggml.bos_token_id", bos)
                .u32("tokenizer.ggml.eos_token_id", eos)
                .u32("tokenizer.ggml.padding_token_id", bos)
                .bool("tokenizer.ggml.add_bos_token", false);
        vocab.chatTemplate().ifPresent(t -> g.string("tokenizer.chat_template", t));
        return g;
    }

    private void linear(String hf, String gguf, int out, int in, boolean bias) {
        add(hf + ".weight", gguf + ".weight", gaussian(1.0 / Math.sqrt(in), out * in), out, in);
        if (bias) {
            add(hf + ".bias", gguf + ".bias", gaussian(BIAS_STD, out), out);
        }
    }

    private float[] norm(double scale, int size) {
        float[] v = new float[size];
        for (int i = 0; i < size; i++) {
            v[i] = (float) (scale * (1.0 + NORM_STD * random.nextGaussian()));
        }
        return v;
    }

    private float[] gaussian(double std, int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) (std * random.nextGaussian());
        }
        return v;
    }

    private void add(String hf, String gguf, float[] values, long... shape) {
        tensors.add(new Tensor(hf, gguf, shape, values));
    }

    private static double secondsSince(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }

    /**
     * The tokenizer as GGUF wants it: every id up to the model's vocabulary ({@link #VOCAB} here) with its text (byte-level strings; padding ids
     * as {@code [PADi]}) and type (1 normal, 3 control for special added tokens, 4 user-defined for other added
     * tokens, 5 unused for padding), the merges as {@code "left right"}, and the chat template.
     */
    record Vocab(List<String> tokens, int[] types, List<String> merges, int used, Optional<String> chatTemplate) {

        static Vocab read(Path tokenizerJson, Path tokenizerConfig) throws IOException {
            return read(tokenizerJson, tokenizerConfig, VOCAB);
        }

        /** The tokenizer padded to {@code size} ids. */
        static Vocab read(Path tokenizerJson, Path tokenizerConfig, int size) throws IOException {
            JsonNode tok = HfJson.read(tokenizerJson);
            Map<Integer, String> byId = new LinkedHashMap<>();
            Map<Integer, Integer> typeById = new LinkedHashMap<>();
            tok.path("model").path("vocab").properties().forEach(e -> {
                byId.put(e.getValue().asInt(), e.getKey());
                typeById.put(e.getValue().asInt(), 1);
            });
            for (JsonNode a : tok.path("added_tokens")) {
                byId.put(a.path("id").asInt(), a.path("content").asText());
                typeById.put(a.path("id").asInt(), a.path("special").asBoolean() ? 3 : 4);
            }
            int used = byId.keySet().stream().mapToInt(Integer::intValue).max().orElse(-1) + 1;
            if (used != byId.size() || used > size) {
                throw new IllegalStateException("tokenizer ids are not dense in [0, " + used + ") within " + size);
            }
            List<String> tokens = new ArrayList<>(size);
            int[] types = new int[size];
            for (int id = 0; id < size; id++) {
                tokens.add(id < used ? byId.get(id) : "[PAD" + id + "]");
                types[id] = id < used ? typeById.get(id) : 5;
            }
            List<String> merges = new ArrayList<>();
            for (JsonNode m : tok.path("model").path("merges")) {
                merges.add(m.isArray() ? m.get(0).asText() + " " + m.get(1).asText() : m.asText());
            }
            JsonNode template = HfJson.read(tokenizerConfig).path("chat_template");
            return new Vocab(tokens, types, merges, used,
                    template.isTextual() ? Optional.of(template.asText()) : Optional.empty());
        }
    }
}
