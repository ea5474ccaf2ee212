package dev.crucible.engine.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.engine.spi.AdamWStep;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.TrainingSequence;
import dev.crucible.hf.safetensors.SafetensorsReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A saved AdamW state is resumed only under the betas it was accumulated with: an RL job (0.9, 0.99) after an SFT
 * job (0.9, 0.999) starts from fresh moments, exactly as if the SFT checkpoint had no optimiser file, while a job
 * with the same betas carries the moments and the update count on. What counts is the first update's betas, not the
 * trainer's defaults: a Tinker run reloaded with its optimiser steps with the betas it saved and carries on.
 */
class DjlOptimizerResumeTest {

    @TempDir
    Path dir;

    @Test
    void momentsCarryOverUnderTheSameBetasOnlyAndOtherwiseStartFresh() throws IOException {
        OptimizerStart start = OptimizerStart.write(dir);
        try (ModelRunner runner = new DjlEngineProvider().loadModel(start.model())) {
            List<TrainingSequence> batch = DjlLoraTrainerTest.batch(runner.vocabSize());
            Path sft = dir.resolve("sft");
            train(runner, batch, start.adapter(), 0.999, sft, 1);
            assertEquals(Map.of("step", "1", "beta1", "0.9", "beta2", "0.999"), metadata(sft));

            Path moreSft = dir.resolve("more-sft");
            train(runner, batch, sft, 0.999, moreSft, 2);
            assertEquals("2", metadata(moreSft).get("step"), "the same betas continue the saved state");

            Path rl = dir.resolve("rl");
            train(runner, batch, sft, 0.99, rl, 2);
            assertEquals(Map.of("step", "1", "beta1", "0.9", "beta2", "0.99"), metadata(rl),
                    "other betas start a fresh state");

            Path bare = dir.resolve("sft-without-optimizer");
            Files.createDirectories(bare);
            try (var files = Files.list(sft)) {
                for (Path f : files.toList()) {
                    if (!f.getFileName().toString().equals(DjlOptimizerFile.NAME)) {
                        Files.copy(f, bare.resolve(f.getFileName()));
                    }
                }
            }
            Path fresh = dir.resolve("rl-fresh");
            train(runner, batch, bare, 0.99, fresh, 2);
            Map<String, float[]> expected = adapter(fresh);
            Map<String, float[]> actual = adapter(rl);
            assertEquals(expected.keySet(), actual.keySet());
            expected.forEach((name, values) -> assertArrayEquals(values, actual.get(name), name));

            Path reloaded = dir.resolve("rl-reloaded");
            train(runner, batch, rl, 0.999, 0.99, reloaded, 3);
            assertEquals("2", metadata(reloaded).get("step"), "a trainer of other defaults stepping with the saved "
                    + "betas carries the saved state on");
        }
    }

    /** One AdamW step (learning rate 1e-2, beta1 0.9, {@code beta2}) from {@code from}, saved to {@code to}. */
    private static void train(ModelRunner runner, List<TrainingSequence> batch, Path from, double beta2, Path to,
            int seed) {
        train(runner, batch, from, beta2, beta2, to, seed);
    }

    /** The same by a trainer whose own default {@code beta2} is {@code trainerBeta2}. */
    private static void train(ModelRunner runner, List<TrainingSequence> batch, Path from, double trainerBeta2,
            double beta2, Path to, int seed) {
        try (DjlLoraTrainer trainer = (DjlLoraTrainer) runner.newTrainer(OptimizerStart.spec(from, trainerBeta2))) {
            trainer.accumulate(batch, DjlLoraTrainerTest.linear(batch, seed));
            trainer.step(new AdamWStep(1e-2, 0.9, beta2, 1e-8, 0.0, 1.0));
            trainer.save(to);
        }
    }

    private static Map<String, String> metadata(Path adapter) throws IOException {
        try (SafetensorsReader reader = SafetensorsReader.open(adapter.resolve(DjlOptimizerFile.NAME))) {
            return new TreeMap<>(reader.metadata());
        }
    }

    private static Map<String, float[]> adapter(Path folder) throws IOException {
        Map<String, float[]> out = new TreeMap<>();
        try (SafetensorsReader reader = SafetensorsReader.open(folder.resolve("adapter_model.safetensors"))) {
            for (String name : reader.names()) {
                out.put(name, reader.floats(name));
            }
        }
        return out;
    }
}
