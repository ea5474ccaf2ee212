package dev.crucible.engine.djl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.peft.PeftAdapterWriter;
import dev.crucible.hf.tiny.TinyAdapter;
import dev.crucible.hf.tiny.TinyModel;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.StreamSupport;

/**
 * What {@code reference/reference.py} (a NumPy port of the Hugging Face modelling code) computed for one tiny model:
 * the prompt, its greedy continuation, the logits after every token of prompt + continuation (but the last), and the
 * last-position logits of two extra prompts. The model itself is rewritten from the same seed by {@link #writeModel}.
 * A LoRA fixture ({@link #ofLora}) holds the same for the model with a random adapter, rewritten by
 * {@link #writeAdapter}.
 *
 * @param sequenceLogits row {@code i} holds the logits after token {@code i} of {@link #sequence()}
 * @param extraLogits    row {@code i} holds the logits after the last token of {@code extraPrompts[i]}
 * @param adapterSeed    the seed of the {@link TinyAdapter#writeRandom random adapter} applied; 0 without one
 * @param adapterSha256  the SHA-256 of its {@code adapter_model.safetensors}; null without one
 */
record ReferenceFixture(Architecture architecture, long seed, String modelSha256, int vocabSize, int[] prompt,
        int[] greedy, double minGreedyMargin, float[][] sequenceLogits, List<int[]> extraPrompts,
        float[][] extraLogits, long adapterSeed, String adapterSha256) {

    private static final String FOLDER = "/reference/";

    /** The base model's fixture. */
    static ReferenceFixture of(Architecture arch) {
        return read(arch, arch.modelType());
    }

    /** The fixture of the model with its random LoRA adapter. */
    static ReferenceFixture ofLora(Architecture arch) {
        return read(arch, arch.modelType() + "-lora");
    }

    private static ReferenceFixture read(Architecture arch, String name) {
        JsonNode j = json(name + ".json");
        int vocab = j.get("vocab_size").intValue();
        JsonNode adapterSha = j.get("adapter_sha256");
        return new ReferenceFixture(arch, j.get("seed").longValue(), j.get("model_sha256").textValue(), vocab,
                ints(j.get("prompt")), ints(j.get("greedy")), j.get("min_greedy_margin").doubleValue(),
                floats(j.get("sequence_logits").textValue(), vocab),
                StreamSupport.stream(j.get("extra_prompts").spliterator(), false).map(ReferenceFixture::ints).toList(),
                floats(j.get("extra_logits").textValue(), vocab),
                j.has("adapter_seed") ? j.get("adapter_seed").longValue() : 0,
                adapterSha == null ? null : adapterSha.textValue());
    }

    /** Writes the tiny model the reference read; fails unless its weights are byte for byte the same. */
    TinyModel writeModel(Path dir) throws IOException {
        TinyModel model = TinyModel.write(architecture, dir, seed);
        String sha = sha256(Files.readAllBytes(dir.resolve("model.safetensors")));
        if (!sha.equals(modelSha256)) {
            throw new IllegalStateException(architecture + " tiny model (seed " + seed + ") has SHA-256 " + sha
                    + " but the reference was computed on " + modelSha256 + ": regenerate the fixtures");
        }
        return model;
    }

    /** The tiny model, written to {@code dir} as {@link #writeModel} checks it, loaded by the djl engine. */
    ModelRunner loadModel(Path dir) throws IOException {
        return new DjlEngineProvider().loadModel(ModelFolder.read(writeModel(dir).dir()));
    }

    /** Writes the random adapter the reference applied; fails unless its weights are byte for byte the same. */
    Path writeAdapter(ModelConfig config, Path adapterDir) throws IOException {
        if (adapterSha256 == null) {
            throw new IllegalStateException(architecture + " base fixture has no adapter");
        }
        TinyAdapter.writeRandom(config, adapterDir, adapterSeed);
        String sha = sha256(Files.readAllBytes(adapterDir.resolve(PeftAdapterWriter.WEIGHTS_FILE)));
        if (!sha.equals(adapterSha256)) {
            throw new IllegalStateException(architecture + " adapter (seed " + adapterSeed + ") has SHA-256 " + sha
                    + " but the reference was computed on " + adapterSha256 + ": regenerate the fixtures");
        }
        return adapterDir;
    }

    /** The prompt followed by the greedy tokens but the last: the tokens whose logits {@link #sequenceLogits} holds. */
    int[] sequence() {
        int[] s = new int[prompt.length + greedy.length - 1];
        System.arraycopy(prompt, 0, s, 0, prompt.length);
        System.arraycopy(greedy, 0, s, prompt.length, greedy.length - 1);
        return s;
    }

    /** The reference logits after the last prompt token. */
    float[] promptLastLogits() {
        return sequenceLogits[prompt.length - 1];
    }

    private static JsonNode json(String name) {
        try (InputStream in = resource(name)) {
            return new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static float[][] floats(String name, int vocab) {
        try (InputStream in = resource(name)) {
            ByteBuffer buf = ByteBuffer.wrap(in.readAllBytes()).order(ByteOrder.LITTLE_ENDIAN);
            float[][] rows = new float[buf.remaining() / Float.BYTES / vocab][vocab];
            for (float[] row : rows) {
                buf.asFloatBuffer().get(row);
                buf.position(buf.position() + vocab * Float.BYTES);
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static InputStream resource(String name) {
        InputStream in = ReferenceFixture.class.getResourceAsStream(FOLDER + name);
        if (in == null) {
            throw new IllegalStateException("missing test resource " + FOLDER + name);
        }
        return in;
    }

    private static int[] ints(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).mapToInt(JsonNode::intValue).toArray();
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
