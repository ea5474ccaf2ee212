package dev.crucible.hf.tiny;

import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.peft.LoraConfig;
import dev.crucible.hf.peft.LoraTarget;
import dev.crucible.hf.peft.PeftAdapterWriter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Random;

/**
 * Deterministic LoRA adapters in PEFT format for a model: rank {@value #RANK}, alpha {@value #ALPHA}, every projection
 * of every layer, drawn layer by layer and target by target ({@code A} then {@code B}) from one {@link Random}, so a
 * model configuration and a seed always give the same bytes.
 */
public final class TinyAdapter {

    /** The rank of the adapters written here. */
    public static final int RANK = 8;
    /** Their {@code lora_alpha}, so scaling is 2. */
    public static final int ALPHA = 16;
    /** The standard deviation of a random adapter's {@code B}: each delta is then about a quarter of its projection. */
    static final double B_STD = 0.05;

    private TinyAdapter() {
    }

    /**
     * The adapter PEFT initialises training with: {@code A} Kaiming-uniform ({@code U(-1/sqrt(in), 1/sqrt(in))}),
     * {@code B} zero, so it changes nothing (a model's checkpoint at step 0).
     */
    public static LoraConfig writePeftInit(ModelConfig model, Path dir, long seed) throws IOException {
        return write(model, dir, seed, false, LoraConfig.allProjections(RANK, ALPHA));
    }

    /** A random adapter that visibly changes the logits: {@code A ~ N(0, 1/in)}, {@code B ~ N(0, 0.05²)}. */
    public static LoraConfig writeRandom(ModelConfig model, Path dir, long seed) throws IOException {
        return write(model, dir, seed, true, LoraConfig.allProjections(RANK, ALPHA));
    }

    /**
     * A random adapter as {@link #writeRandom} that also adapts the unembedding ({@code lm_head}), its matrices drawn
     * after layer 0's projections.
     */
    public static LoraConfig writeRandomWithHead(ModelConfig model, Path dir, long seed) throws IOException {
        return write(model, dir, seed, true, LoraConfig.allProjections(RANK, ALPHA).withHead());
    }

    private static LoraConfig write(ModelConfig model, Path dir, long seed, boolean random, LoraConfig config)
            throws IOException {
        PeftAdapterWriter writer = new PeftAdapterWriter(config);
        Random rng = new Random(seed);
        for (int layer = 0; layer < model.numHiddenLayers(); layer++) {
            for (LoraTarget t : config.targets()) {
                if (!t.inLayer(layer)) {
                    continue;
                }
                int in = t.inFeatures(model);
                float[] a = new float[RANK * in];
                float[] b = new float[t.outFeatures(model) * RANK];
                double bound = 1.0 / Math.sqrt(in);
                for (int i = 0; i < a.length; i++) {
                    a[i] = (float) (random ? bound * rng.nextGaussian() : bound * (2 * rng.nextDouble() - 1));
                }
                for (int i = 0; random && i < b.length; i++) {
                    b[i] = (float) (B_STD * rng.nextGaussian());
                }
                writer.add(layer, t, a, b);
            }
        }
        writer.write(dir);
        return config;
    }
}
