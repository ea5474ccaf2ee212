package dev.crucible.application.reward;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.domain.reward.RewardExample;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The held-out split: stratified, seeded, never empty of a label on either side. */
class HeldOutSplitTest {

    private static List<RewardExample> examples(int good, int bad) {
        List<RewardExample> examples = new ArrayList<>();
        IntStream.range(0, good).forEach(i -> examples.add(new RewardExample("p" + i, "good " + i, true)));
        IntStream.range(0, bad).forEach(i -> examples.add(new RewardExample("p" + i, "bad " + i, false)));
        return examples;
    }

    private static long positives(List<RewardExample> examples) {
        return examples.stream().filter(RewardExample::positive).count();
    }

    @Test
    void aFifthOfEachLabelIsHeldOutTheSameWayForTheSameSeed() {
        List<RewardExample> examples = examples(50, 30);
        HeldOutSplit split = HeldOutSplit.of(examples, 42);

        assertEquals(10, positives(split.test()));
        assertEquals(6, split.test().size() - positives(split.test()));
        assertEquals(split, HeldOutSplit.of(examples, 42));
        assertTrue(!split.equals(HeldOutSplit.of(examples, 43)), "another seed holds out others");
    }

    @Property(tries = 200)
    void bothSidesHoldBothLabelsAndTogetherEveryExample(@ForAll @IntRange(min = 2, max = 60) int good,
            @ForAll @IntRange(min = 2, max = 60) int bad, @ForAll long seed) {
        List<RewardExample> examples = examples(good, bad);
        HeldOutSplit split = HeldOutSplit.of(examples, seed);

        assertTrue(positives(split.test()) >= 1 && positives(split.test()) < split.test().size());
        assertTrue(positives(split.train()) >= 1 && positives(split.train()) < split.train().size());
        var all = new HashSet<>(split.train());
        all.addAll(split.test());
        assertEquals(new HashSet<>(examples), all);
        assertEquals(examples.size(), split.train().size() + split.test().size());
    }
}
