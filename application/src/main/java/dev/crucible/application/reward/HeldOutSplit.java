package dev.crucible.application.reward;

import dev.crucible.domain.reward.RewardExample;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * A stratified, seeded split of examples into those fitted on and those held out to measure the fit: of each label,
 * a fifth (at least one, and never all) is held out, chosen by a shuffle under the seed; both parts keep the
 * examples' order. The same examples and seed give the same split.
 *
 * @param train the examples to fit on
 * @param test  the examples held out, with both labels among them
 */
record HeldOutSplit(List<RewardExample> train, List<RewardExample> test) {

    /** The share of each label held out. */
    static final double TEST_SHARE = 0.2;

    HeldOutSplit {
        train = List.copyOf(train);
        test = List.copyOf(test);
    }

    /** Splits {@code examples}, which hold at least two of each label. */
    static HeldOutSplit of(List<RewardExample> examples, long seed) {
        Random random = new Random(seed);
        boolean[] heldOut = new boolean[examples.size()];
        for (boolean label : new boolean[] {true, false}) {
            List<Integer> indices = new ArrayList<>();
            for (int i = 0; i < examples.size(); i++) {
                if (examples.get(i).positive() == label) {
                    indices.add(i);
                }
            }
            if (indices.size() < 2) {
                throw new IllegalArgumentException("a split needs at least two examples of each label");
            }
            Collections.shuffle(indices, random);
            int take = Math.min(indices.size() - 1, Math.max(1, (int) Math.floor(indices.size() * TEST_SHARE)));
            indices.subList(0, take).forEach(i -> heldOut[i] = true);
        }
        List<RewardExample> train = new ArrayList<>();
        List<RewardExample> test = new ArrayList<>();
        for (int i = 0; i < examples.size(); i++) {
            (heldOut[i] ? test : train).add(examples.get(i));
        }
        return new HeldOutSplit(train, test);
    }
}
