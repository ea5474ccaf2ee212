package dev.crucible.engine.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.peft.LoraTarget;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** A LoRA gradient matrix a trainer holds (one per layer, adapted projection and factor), for tests to compare. */
record LoraGradients(int layer, LoraTarget target, boolean ofA) {

    /** Every matrix of {@code targets} that the model's layers carry, layer by layer. */
    static List<LoraGradients> of(ModelConfig config, Collection<LoraTarget> targets) {
        List<LoraGradients> all = new ArrayList<>();
        for (int layer = 0; layer < config.numHiddenLayers(); layer++) {
            for (LoraTarget target : targets) {
                if (target.inLayer(layer)) {
                    all.add(new LoraGradients(layer, target, true));
                    all.add(new LoraGradients(layer, target, false));
                }
            }
        }
        return all;
    }

    /** This matrix's gradient in {@code trainer}. */
    float[] in(DjlLoraTrainer trainer) {
        return trainer.gradient(layer, target, ofA);
    }

    /** Asserts that the two trainers hold the same gradient in each of {@code matrices}, within {@code tolerance}. */
    static void assertSame(List<LoraGradients> matrices, DjlLoraTrainer expected, DjlLoraTrainer actual,
            float tolerance, String what) {
        for (LoraGradients m : matrices) {
            assertArrayEquals(m.in(expected), m.in(actual), tolerance, what + m);
        }
    }

    @Override
    public String toString() {
        return " " + layer + " " + target + (ofA ? " A" : " B");
    }
}
