package dev.crucible.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import ai.djl.pytorch.jni.JniUtils;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crucible.engine.djl.DjlEngineProvider;
import dev.crucible.engine.spi.LoraTrainer;
import dev.crucible.engine.spi.LoraTrainingSpec;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.TokenObjective;
import dev.crucible.engine.spi.TrainingBatchResult;
import dev.crucible.engine.spi.TrainingSequence;
import dev.crucible.hf.HfJson;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.peft.LoraConfig;
import dev.crucible.hf.safetensors.SafetensorsReader;
import dev.crucible.hf.safetensors.TensorInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * Times LoRA training steps through the engine SPI the way an SFT job runs them: a batch of sequences, every position
 * after the first trained with mean cross-entropy ({@link LoraTrainer#accumulate}: forward and backward), then one
 * AdamW step with gradient clipping ({@link LoraTrainer#step}). Each step draws fresh random token ids, so no step
 * reuses another's data. Untimed warm-up steps come first; a step's time is the wall time of both calls.
 */
final class TrainThroughput {

    static final int RANK = 8;
    static final double ALPHA = 16;
    static final double LEARNING_RATE = 1e-4;
    static final double MAX_GRAD_NORM = 1.0;

    /** SFT's loss: the mean negative log-probability over all targets of the batch. */
    private static final TokenObjective MEAN_CROSS_ENTROPY = logprobs -> {
        int count = logprobs.stream().mapToInt(lp -> lp.length).sum();
        double loss = 0;
        List<float[]> gradients = new ArrayList<>(logprobs.size());
        for (float[] lp : logprobs) {
            float[] g = new float[lp.length];
            for (int i = 0; i < lp.length; i++) {
                loss -= lp[i] / (double) count;
                g[i] = -1f / count;
            }
            gradients.add(g);
        }
        return new TokenObjective.Evaluation(loss, gradients);
    };

    /**
     * One model's workload.
     *
     * @param name      how the table names the model
     * @param hf        its Hugging Face folder
     * @param sequences sequences per step
     * @param length    tokens per sequence
     * @param warmup    untimed steps first
     * @param steps     timed steps
     */
    record Workload(String name, Path hf, int sequences, int length, int warmup, int steps) {

        long tokens() {
            return (long) sequences * length;
        }

        long trainableTokens() {
            return (long) sequences * (length - 1);
        }
    }

    private TrainThroughput() {
    }

    /** The parameter count of a model: every value of its safetensors (tied embeddings count once). */
    static long parameters(ModelFolder folder) throws IOException {
        try (SafetensorsReader weights = folder.openWeights()) {
            return weights.tensors().stream().mapToLong(TensorInfo::elementCount).sum();
        }
    }

    static ObjectNode run(DjlEngineProvider engine, Workload w, long seed) throws IOException {
        return run(engine, w, seed, null);
    }

    /**
     * {@link #run}, with PyTorch's profiler recording the timed steps into {@code profile} (a Chrome trace) unless
     * that is null.
     */
    static ObjectNode run(DjlEngineProvider engine, Workload w, long seed, Path profile) throws IOException {
        ObjectNode out = HfJson.object();
        ModelFolder folder = ModelFolder.read(w.hf());
        ModelConfig config = folder.config();
        out.put("model", w.name());
        out.put("architecture", config.architecture().name().toLowerCase());
        out.put("hidden", config.hiddenSize());
        out.put("layers", config.numHiddenLayers());
        out.put("intermediate", config.intermediateSize());
        out.put("vocab", config.vocabSize());
        out.put("parameters", parameters(folder));
        out.put("sequences", w.sequences());
        out.put("length", w.length());
        out.put("tokens_per_step", w.tokens());
        out.put("trainable_tokens_per_step", w.trainableTokens());
        out.put("warmup_steps", w.warmup());
        resetPeakRss();
        long t0 = System.nanoTime();
        try (ModelRunner runner = engine.loadModel(folder)) {
            out.put("load_s", (System.nanoTime() - t0) / 1e9);
            LoraTrainingSpec spec = new LoraTrainingSpec(LoraConfig.allProjections(RANK, ALPHA), Optional.empty(), seed,
                    0.9, 0.999, 1e-8, 0.0);
            try (LoraTrainer trainer = runner.newTrainer(spec)) {
                out.put("trainable_parameters", trainer.trainableParameters());
                Random random = new Random(seed);
                ArrayNode stepS = out.putArray("step_s");
                ArrayNode forwardBackwardS = out.putArray("forward_backward_s");
                ArrayNode optimiserS = out.putArray("optimiser_s");
                ArrayNode losses = out.putArray("loss");
                for (int s = 0; s < w.warmup() + w.steps(); s++) {
                    List<TrainingSequence> batch = batch(random, w, config.vocabSize());
                    if (profile != null && s == w.warmup()) {
                        JniUtils.startProfile(false, true, false);
                    }
                    long a = System.nanoTime();
                    TrainingBatchResult result = trainer.accumulate(batch, MEAN_CROSS_ENTROPY);
                    long b = System.nanoTime();
                    trainer.step(LEARNING_RATE, MAX_GRAD_NORM);
                    long c = System.nanoTime();
                    if (profile != null && s == w.warmup() + w.steps() - 1) {
                        JniUtils.stopProfile(profile.toString());
                    }
                    boolean timed = s >= w.warmup();
                    if (timed) {
                        stepS.add((c - a) / 1e9);
                        forwardBackwardS.add((b - a) / 1e9);
                        optimiserS.add((c - b) / 1e9);
                        losses.add(result.loss());
                    }
                    System.err.printf("train: %s step %d/%d%s: %.3f s (forward+backward %.3f s, AdamW %.3f s), "
                            + "loss %.3f, load %s%n", w.name(), s + 1, w.warmup() + w.steps(),
                            timed ? "" : " (warm-up)", (c - a) / 1e9, (b - a) / 1e9, (c - b) / 1e9, result.loss(),
                            Main.loadAverage());
                }
            }
        }
        out.put("peak_rss_bytes", peakRss());
        out.put("end_rss_anon_bytes", statusBytes("RssAnon:"));
        out.put("end_rss_file_bytes", statusBytes("RssFile:"));
        return out;
    }

    /** Random token ids; every position after the first is a target. */
    private static List<TrainingSequence> batch(Random random, Workload w, int vocab) {
        int[] targets = IntStream.range(1, w.length()).toArray();
        List<TrainingSequence> batch = new ArrayList<>(w.sequences());
        for (int i = 0; i < w.sequences(); i++) {
            batch.add(new TrainingSequence(random.ints(w.length(), 0, vocab).toArray(), targets));
        }
        return batch;
    }

    /** Starts the peak of {@link #peakRss} afresh (Linux: 5 into clear_refs); where that fails, it counts on. */
    static void resetPeakRss() {
        try {
            Files.writeString(Path.of("/proc/self/clear_refs"), "5");
        } catch (IOException e) {
            System.err.println("train: cannot reset the peak resident memory (" + e.getMessage() + "); it counts on");
        }
    }

    /**
     * The process's peak resident memory since {@link #resetPeakRss} (Java heap, PyTorch's native memory and the pages
     * of the memory-mapped weights that were read), from /proc.
     */
    static long peakRss() throws IOException {
        return statusBytes("VmHWM:");
    }

    /**
     * A size line of /proc/self/status in bytes, -1 when absent: at the end of a workload, {@code RssAnon} (heap and
     * PyTorch's memory, whatever the allocator kept) and {@code RssFile} (mapped weights and libraries) tell what the
     * peak was made of.
     */
    static long statusBytes(String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith(field)) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        return -1;
    }
}
