package dev.crucible.bench;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The synthetic task of {@code bench/learn-task}: addition of two numbers of 1 to {@code maxDigits} digits each,
 * written {@code 123+45} with the answer {@code 168}. The held-out problems are drawn first from their own seed and
 * never appear among the training problems (pretraining, SFT or RL), which skip them. Deterministic per seed.
 *
 * @param maxDigits the most digits an operand has
 */
record AdditionTask(int maxDigits) {

    /** One problem: the prompt {@code a+b} and its exact answer. */
    record Problem(String prompt, String answer) {
    }

    AdditionTask {
        if (maxDigits < 1 || maxDigits > 6) {
            throw new IllegalArgumentException("maxDigits must be 1..6, got " + maxDigits);
        }
    }

    /** The held-out problems: {@code count} distinct ones from {@code seed}. */
    List<Problem> heldOut(int count, long seed) {
        Random random = new Random(seed);
        Set<String> seen = new HashSet<>();
        List<Problem> out = new ArrayList<>();
        while (out.size() < count) {
            Problem p = draw(random);
            if (seen.add(p.prompt())) {
                out.add(p);
            }
        }
        return out;
    }

    /** A source of training problems from {@code seed} that never yields one of {@code heldOut}. */
    Source training(List<Problem> heldOut, long seed) {
        Set<String> excluded = new HashSet<>();
        heldOut.forEach(p -> excluded.add(p.prompt()));
        return new Source(this, new Random(seed), excluded);
    }

    /** The reward: 1 when the answer, stripped of surrounding whitespace, is exactly the sum, else 0. */
    static double reward(Problem problem, String answer) {
        return answer != null && answer.strip().equals(problem.answer()) ? 1.0 : 0.0;
    }

    private Problem draw(Random random) {
        long a = operand(random);
        long b = operand(random);
        return new Problem(a + "+" + b, Long.toString(a + b));
    }

    private long operand(Random random) {
        int digits = 1 + random.nextInt(maxDigits);
        long low = digits == 1 ? 0 : (long) Math.pow(10, digits - 1);
        long high = (long) Math.pow(10, digits);
        return low + (long) (random.nextDouble() * (high - low));
    }

    /** Training problems, one after another; not thread-safe. */
    static final class Source {
        private final AdditionTask task;
        private final Random random;
        private final Set<String> excluded;

        private Source(AdditionTask task, Random random, Set<String> excluded) {
            this.task = task;
            this.random = random;
            this.excluded = excluded;
        }

        Problem next() {
            while (true) {
                Problem p = task.draw(random);
                if (!excluded.contains(p.prompt())) {
                    return p;
                }
            }
        }

        List<Problem> next(int count) {
            List<Problem> out = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                out.add(next());
            }
            return out;
        }
    }
}
