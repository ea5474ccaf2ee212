package dev.crucible.application.training;

import dev.crucible.engine.spi.TrainingSequence;
import java.util.ArrayList;
import java.util.List;

/** Splits a training batch into micro-batches whose gradients accumulate, so that memory is bounded by tokens. */
public final class MicroBatches {

    private MicroBatches() {
    }

    /** Consecutive sequences of at most {@code maxTokens} tokens together (a longer sequence goes alone), in order. */
    public static List<List<TrainingSequence>> split(List<TrainingSequence> batch, int maxTokens) {
        List<List<TrainingSequence>> out = new ArrayList<>();
        List<TrainingSequence> current = new ArrayList<>();
        int used = 0;
        for (TrainingSequence s : batch) {
            if (!current.isEmpty() && used + s.length() > maxTokens) {
                out.add(current);
                current = new ArrayList<>();
                used = 0;
            }
            current.add(s);
            used += s.length();
        }
        if (!current.isEmpty()) {
            out.add(current);
        }
        return out;
    }
}
