package dev.crucible.adapters.tribuo;

import dev.crucible.domain.reward.RewardExample;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Labelled examples whose label a word of the answer decides, among neutral words shared by both labels. */
final class SyntheticExamples {

    private static final String[] NEUTRAL = {"the", "model", "answer", "river", "blue", "seven", "table", "runs",
        "quickly", "under", "light", "paper", "stone", "green", "city", "after"};
    private static final String[] GOOD = {"Correct", "helpful", "clear", "precise"};
    private static final String[] BAD = {"wrong", "Rude", "confusing", "useless"};

    private SyntheticExamples() {
    }

    static List<RewardExample> of(int count, long seed) {
        Random random = new Random(seed);
        List<RewardExample> examples = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            boolean good = i % 2 == 0;
            String marker = (good ? GOOD : BAD)[random.nextInt(GOOD.length)];
            examples.add(new RewardExample(words(random, 6), words(random, 3) + " " + marker + " " + words(random, 3),
                    good));
        }
        return examples;
    }

    static String words(Random random, int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append(i == 0 ? "" : " ").append(NEUTRAL[random.nextInt(NEUTRAL.length)]);
        }
        return text.toString();
    }
}
