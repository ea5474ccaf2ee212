package dev.crucible.engine.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.spi.AdamWStep;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.TrainingSequence;
import dev.crucible.hf.peft.LoraTarget;
import dev.crucible.hf.peft.PeftAdapterWriter;
import dev.crucible.hf.safetensors.SafetensorsReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The trainer's AdamW against a reference written here from {@code torch.optim.AdamW}'s documented algorithm
 * (decoupled weight decay {@code theta *= 1 - lr * lambda}, moments, bias correction {@code 1 - beta^t},
 * {@code theta -= lr * m_hat / (sqrt(v_hat) + eps)}) after {@code clip_grad_norm_} ({@code g *= min(1, max_norm /
 * (norm + 1e-6))}), in double precision, over two steps whose settings all differ from each other and from the spec's:
 * the first clips, the second does not (a norm of 0).
 */
class DjlAdamWTest {

    @TempDir
    Path dir;

    @Test
    void twoStepsWithTheirOwnSettingsAreTorchsAdamWAfterGradientClipping() throws IOException {
        OptimizerStart start = OptimizerStart.write(dir);
        Map<String, double[]> theta = read(start.adapter());
        Map<String, double[]> m = new HashMap<>();
        Map<String, double[]> v = new HashMap<>();
        try (ModelRunner runner = new DjlEngineProvider().loadModel(start.model());
                DjlLoraTrainer trainer = (DjlLoraTrainer) runner.newTrainer(
                        OptimizerStart.spec(start.adapter(), 0.999))) {
            List<TrainingSequence> batch = DjlLoraTrainerTest.batch(runner.vocabSize());
            for (int t = 1; t <= 2; t++) {
                trainer.accumulate(batch, DjlLoraTrainerTest.linear(batch, t));
                Map<String, double[]> grads = gradients(trainer, runner.config().numHiddenLayers());
                double norm = Math.sqrt(grads.values().stream().flatMapToDouble(java.util.Arrays::stream)
                        .map(g -> g * g).sum());
                AdamWStep settings = t == 1 ? new AdamWStep(2e-2, 0.8, 0.9, 1e-3, 0.1, norm / 3)
                        : new AdamWStep(5e-3, 0.5, 0.7, 1e-6, 0.0, 0);
                assertEquals(norm, trainer.step(settings), norm * 1e-5, "the norm before clipping, step " + t);
                double clip = settings.maxGradNorm() > 0 ? Math.min(1, settings.maxGradNorm() / (norm + 1e-6)) : 1;
                assertTrue(t == 1 ? clip < 0.5 : clip == 1, "step 1 clips, step 2 does not");
                for (String name : theta.keySet()) {
                    torchAdamW(theta.get(name), grads.get(name), m.computeIfAbsent(name, k -> new double[grads
                            .get(k).length]), v.computeIfAbsent(name, k -> new double[grads.get(k).length]), clip,
                            settings, t);
                }
                trainer.save(dir.resolve("step-" + t));
                Map<String, double[]> actual = read(dir.resolve("step-" + t));
                double worst = 0;
                for (String name : theta.keySet()) {
                    double[] expected = theta.get(name);
                    for (int i = 0; i < expected.length; i++) {
                        double error = Math.abs(expected[i] - actual.get(name)[i]);
                        worst = Math.max(worst, error);
                        assertEquals(expected[i], actual.get(name)[i], 2e-6 + 1e-5 * Math.abs(expected[i]),
                                "step " + t + " " + name + "[" + i + "]");
                    }
                }
                System.out.printf("AdamW step %d: worst |djl - torch reference| %.2e%n", t, worst);
            }
            assertEquals(2, trainer.steps());
        }
    }

    /** One torch.optim.AdamW step (no amsgrad, no maximize) on one tensor, in place, its gradient times clip. */
    private static void torchAdamW(double[] theta, double[] grad, double[] m, double[] v, double clip, AdamWStep s,
            int t) {
        for (int i = 0; i < theta.length; i++) {
            double g = grad[i] * clip;
            theta[i] -= s.learningRate() * s.weightDecay() * theta[i];
            m[i] = s.beta1() * m[i] + (1 - s.beta1()) * g;
            v[i] = s.beta2() * v[i] + (1 - s.beta2()) * g * g;
            double mHat = m[i] / (1 - Math.pow(s.beta1(), t));
            double vHat = v[i] / (1 - Math.pow(s.beta2(), t));
            theta[i] -= s.learningRate() * mHat / (Math.sqrt(vHat) + s.epsilon());
        }
    }

    @Test
    void settingsOutOfRangeAreRefusedByTheRecord() {
        assertEquals("beta1 must be in [0, 1), got 1.0", assertThrows(IllegalArgumentException.class,
                () -> new AdamWStep(1e-3, 1.0, 0.9, 1e-8, 0, 0)).getMessage());
        assertEquals("beta2 must be in [0, 1), got -0.1", assertThrows(IllegalArgumentException.class,
                () -> new AdamWStep(1e-3, 0.9, -0.1, 1e-8, 0, 0)).getMessage());
        assertEquals("epsilon must be finite and > 0, got 0.0", assertThrows(IllegalArgumentException.class,
                () -> new AdamWStep(1e-3, 0.9, 0.9, 0, 0, 0)).getMessage());
        assertEquals("weightDecay must be finite and >= 0, got NaN", assertThrows(IllegalArgumentException.class,
                () -> new AdamWStep(1e-3, 0.9, 0.9, 1e-8, Double.NaN, 0)).getMessage());
        assertEquals("learningRate must be finite and >= 0, got Infinity", assertThrows(
                IllegalArgumentException.class, () -> new AdamWStep(Double.POSITIVE_INFINITY, 0.9, 0.9, 1e-8, 0, 0))
                .getMessage());
        assertTrue(!new AdamWStep(1e-3, 0.9, 0.9, 1e-8, 0, 0).clips(), "a clip norm of 0 means no clipping");
    }

    private static Map<String, double[]> gradients(DjlLoraTrainer trainer, int layers) {
        Map<String, double[]> grads = new HashMap<>();
        for (int layer = 0; layer < layers; layer++) {
            for (LoraTarget target : OptimizerStart.LORA.targets()) {
                grads.put(target.tensorName(layer, "A"), widen(trainer.gradient(layer, target, true)));
                grads.put(target.tensorName(layer, "B"), widen(trainer.gradient(layer, target, false)));
            }
        }
        return grads;
    }

    private static Map<String, double[]> read(Path peftFolder) throws IOException {
        Map<String, double[]> tensors = new HashMap<>();
        try (SafetensorsReader reader = SafetensorsReader.open(peftFolder.resolve(PeftAdapterWriter.WEIGHTS_FILE))) {
            for (String name : reader.names()) {
                tensors.put(name, widen(reader.floats(name)));
            }
        }
        return tensors;
    }

    private static double[] widen(float[] values) {
        double[] out = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = values[i];
        }
        return out;
    }
}
