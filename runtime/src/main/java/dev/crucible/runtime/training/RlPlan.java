package dev.crucible.runtime.training;

import dev.crucible.engine.spi.TrainingSequence;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An RL job's trajectory groups turned into optimiser steps, as ART's trainer prepares them: group-relative
 * advantages (reward minus the group's mean, divided by the group's population standard deviation plus 1e-6 when
 * normalising), groups with one trajectory or one distinct reward and trajectories with a zero advantage skipped,
 * each trajectory's trained tokens weighted by the inverse of their count, weights rescaled to a mean of 1 and
 * advantages balanced then divided by their weighted mean magnitude; sequences packed greedily, in order, into rows
 * of at most {@code packLength} tokens, one optimiser step per row.
 *
 * @param rows               the optimiser steps, each a list of sequences
 * @param groupsSubmitted    the groups sent
 * @param groupsTrainable    groups with more than one trajectory and more than one distinct reward
 * @param trajectoriesTrained trajectories with a non-zero advantage and at least one trained token
 * @param trainedTokens      trained tokens over all rows
 * @param truncated          conversations cut to the model's context length
 */
public record RlPlan(List<List<RlSequence>> rows, int groupsSubmitted, int groupsTrainable, int trajectoriesTrained,
        long trainedTokens, int truncated) {

    static final double ZERO_ADVANTAGE = 1e-12;
    static final int PACK_MULTIPLE = 2048;

    public RlPlan {
        rows = List.copyOf(rows);
    }

    /**
     * The scored rollouts of one scenario.
     *
     * @param rollouts      its trajectories
     * @param rewardStdDev  the population standard deviation of their rewards
     */
    public record Group(List<Rollout> rollouts, double rewardStdDev) {
        public Group {
            rollouts = List.copyOf(rollouts);
        }
    }

    /**
     * One trajectory: its reward and its conversations, the main one first, then the additional ones.
     */
    public record Rollout(double reward, List<Conversation> conversations) {
        public Rollout {
            conversations = List.copyOf(conversations);
        }
    }

    /**
     * @param normalizeAdvantages divide advantages by the group's reward standard deviation
     * @param advantageBalance    in [-1, 1]: scales negative (b &gt; 0) or positive (b &lt; 0) advantages
     * @throws TrainingInputException when a trained conversation cannot be tokenised
     */
    public static RlPlan of(List<Group> groups, boolean normalizeAdvantages, double advantageBalance,
            TrajectoryTokenizer tokenizer, int maxLength) {
        List<RlSequence> sequences = new ArrayList<>();
        int trainable = 0;
        int trajectories = 0;
        int truncated = 0;
        for (int g = 0; g < groups.size(); g++) {
            List<Rollout> ts = groups.get(g).rollouts();
            Set<Double> distinct = new HashSet<>();
            ts.forEach(t -> distinct.add(t.reward()));
            if (ts.size() < 2 || distinct.size() < 2) {
                continue;
            }
            trainable++;
            double mean = ts.stream().mapToDouble(Rollout::reward).average().orElse(0);
            double std = groups.get(g).rewardStdDev();
            for (int t = 0; t < ts.size(); t++) {
                double advantage = ts.get(t).reward() - mean;
                if (normalizeAdvantages) {
                    advantage /= std + 1e-6;
                }
                if (Math.abs(advantage) <= ZERO_ADVANTAGE) {
                    continue;
                }
                String where = "trajectory_groups[" + g + "].trajectories[" + t + "]";
                List<TokenizedTurns.Turns> tokenized = new ArrayList<>();
                List<Conversation> histories = ts.get(t).conversations();
                for (int h = 0; h < histories.size(); h++) {
                    Optional<TokenizedTurns.Turns> turns = tokenizer.tokenize(histories.get(h),
                            h == 0 ? where : where + ".additional_histories[" + (h - 1) + "]");
                    turns.filter(x -> x.targets().length > 0).ifPresent(tokenized::add);
                }
                int tokens = tokenized.stream().mapToInt(x -> x.targets().length).sum();
                if (tokens == 0) {
                    continue;
                }
                for (TokenizedTurns.Turns turns : tokenized) {
                    truncated += turns.truncated() ? 1 : 0;
                    sequences.add(new RlSequence(new TrainingSequence(turns.tokenIds(), turns.targets()),
                            turns.logprobs(), advantage, 1.0 / tokens, trajectories));
                }
                trajectories++;
            }
        }
        List<RlSequence> normalised = normalise(sequences, advantageBalance);
        long tokens = normalised.stream().mapToLong(s -> s.sequence().targetCount()).sum();
        return new RlPlan(pack(normalised, maxLength), groups.size(), trainable, trajectories, tokens, truncated);
    }

    /** Weights to a mean of 1 over trained tokens; advantages balanced, then divided by mean |advantage| x weight. */
    private static List<RlSequence> normalise(List<RlSequence> sequences, double balance) {
        double tokens = 0;
        double weightSum = 0;
        for (RlSequence s : sequences) {
            tokens += s.sequence().targetCount();
            weightSum += s.weight() * s.sequence().targetCount();
        }
        if (tokens == 0) {
            return List.of();
        }
        double weightScale = tokens / weightSum;
        double magnitude = 0;
        List<RlSequence> balanced = new ArrayList<>(sequences.size());
        for (RlSequence s : sequences) {
            double a = s.advantage();
            if (balance > 0 && a < 0) {
                a *= 1 - balance;
            } else if (balance < 0 && a > 0) {
                a *= 1 + balance;
            }
            RlSequence b = s.with(a, s.weight() * weightScale);
            magnitude += Math.abs(a) * b.weight() * s.sequence().targetCount();
            balanced.add(b);
        }
        double meanMagnitude = magnitude / tokens;
        if (meanMagnitude == 0) {
            return balanced;
        }
        return balanced.stream().map(s -> s.with(s.advantage() / meanMagnitude, s.weight())).toList();
    }

    /** Greedy packing in order into rows of at most the longest sequence rounded up to 2048, capped by the model. */
    private static List<List<RlSequence>> pack(List<RlSequence> sequences, int maxLength) {
        int longest = sequences.stream().mapToInt(s -> s.sequence().length()).max().orElse(0);
        int rowLength = Math.min(maxLength, ((longest + PACK_MULTIPLE - 1) / PACK_MULTIPLE) * PACK_MULTIPLE);
        List<List<RlSequence>> rows = new ArrayList<>();
        List<RlSequence> row = new ArrayList<>();
        int used = 0;
        for (RlSequence s : sequences) {
            if (!row.isEmpty() && used + s.sequence().length() > rowLength) {
                rows.add(List.copyOf(row));
                row.clear();
                used = 0;
            }
            row.add(s);
            used += s.sequence().length();
        }
        if (!row.isEmpty()) {
            rows.add(List.copyOf(row));
        }
        return rows;
    }
}
