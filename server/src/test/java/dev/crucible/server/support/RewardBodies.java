package dev.crucible.server.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Reward-model request bodies over synthetic examples: an answer's label is decided by one word of it, among neutral
 * words both labels share, so a fitted model separates held-out examples almost perfectly.
 */
public final class RewardBodies {

    private static final String[] NEUTRAL = {"the", "model", "answer", "river", "blue", "seven", "table", "runs",
        "under", "light", "paper", "stone"};
    private static final String[] GOOD = {"correct", "helpful", "clear"};
    private static final String[] BAD = {"wrong", "rude", "useless"};

    private RewardBodies() {
    }

    /** {@code count} examples, alternately good and bad, as the wire's {@code {prompt, answer, label}}. */
    public static List<Map<String, Object>> examples(int count, long seed) {
        Random random = new Random(seed);
        List<Map<String, Object>> examples = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            boolean good = i % 2 == 0;
            examples.add(Map.of("prompt", words(random, 5), "answer", answer(random, good), "label", good));
        }
        return examples;
    }

    /** A fit request for {@code name} in project {@code proj}. */
    public static Map<String, Object> create(String name, int count, long seed) {
        return Map.of("name", name, "project", "proj", "examples", examples(count, seed));
    }

    /** An answer a fitted model should score high ({@code good}) or low. */
    public static String answer(Random random, boolean good) {
        return words(random, 3) + " " + (good ? GOOD : BAD)[random.nextInt(GOOD.length)] + " " + words(random, 3);
    }

    private static String words(Random random, int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append(i == 0 ? "" : " ").append(NEUTRAL[random.nextInt(NEUTRAL.length)]);
        }
        return text.toString();
    }
}
