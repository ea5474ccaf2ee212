package dev.crucible.application.reward;

import dev.crucible.domain.reward.RewardExample;
import dev.crucible.domain.reward.RewardItem;
import dev.crucible.kernel.refusal.Refusal;
import java.util.List;
import java.util.Optional;

/**
 * The checks on what a tenant hands a fit or a score, before any work: counts and text sizes, and for a fit both
 * labels present often enough to hold some out. Each refusal names the field as the wire spells it.
 */
final class RewardInputs {

    private RewardInputs() {
    }

    /** Why {@code examples} cannot be fitted within {@code limits}, or empty when they can. */
    static Optional<Refusal> checkExamples(List<RewardExample> examples, RewardLimits limits) {
        if (examples.size() > limits.maxExamples()) {
            return Optional.of(new Refusal(Refusal.Reason.TOO_LARGE, "examples holds " + examples.size()
                    + " examples, more than the " + limits.maxExamples() + " a fit takes (setting "
                    + "crucible.reward.max-examples)", "examples"));
        }
        if (examples.size() < limits.minExamples()) {
            return Optional.of(Refusal.invalid("examples", "a reward model needs at least " + limits.minExamples()
                    + " examples (setting crucible.reward.min-examples), got " + examples.size()));
        }
        long positive = 0;
        for (int i = 0; i < examples.size(); i++) {
            RewardExample example = examples.get(i);
            Optional<Refusal> tooLong = texts("examples[" + i + "]", example.prompt(), example.answer(), limits);
            if (tooLong.isPresent()) {
                return tooLong;
            }
            positive += example.positive() ? 1 : 0;
        }
        long negative = examples.size() - positive;
        if (positive == 0 || negative == 0) {
            return Optional.of(Refusal.invalid("examples", "every example has the label " + (positive > 0)
                    + ": a reward model needs examples of both labels, true and false"));
        }
        if (positive < RewardLimits.MIN_PER_LABEL || negative < RewardLimits.MIN_PER_LABEL) {
            return Optional.of(Refusal.invalid("examples", "a reward model needs at least "
                    + RewardLimits.MIN_PER_LABEL + " examples of each label (one is held out to measure it), got "
                    + positive + " true and " + negative + " false"));
        }
        return Optional.empty();
    }

    /** Why {@code items} cannot be scored within {@code limits}, or empty when they can. */
    static Optional<Refusal> checkItems(List<RewardItem> items, RewardLimits limits) {
        if (items.isEmpty()) {
            return Optional.of(Refusal.invalid("items", "items must hold at least one {prompt, answer} pair"));
        }
        if (items.size() > limits.maxScoreItems()) {
            return Optional.of(new Refusal(Refusal.Reason.TOO_LARGE, "items holds " + items.size()
                    + " pairs, more than the " + limits.maxScoreItems() + " one request may score (setting "
                    + "crucible.reward.max-score-items)", "items"));
        }
        for (int i = 0; i < items.size(); i++) {
            Optional<Refusal> tooLong = texts("items[" + i + "]", items.get(i).prompt(), items.get(i).answer(), limits);
            if (tooLong.isPresent()) {
                return tooLong;
            }
        }
        return Optional.empty();
    }

    private static Optional<Refusal> texts(String path, String prompt, String answer, RewardLimits limits) {
        if (prompt.length() > limits.maxTextChars()) {
            return Optional.of(tooLong(path + ".prompt", prompt.length(), limits));
        }
        if (answer.length() > limits.maxTextChars()) {
            return Optional.of(tooLong(path + ".answer", answer.length(), limits));
        }
        return Optional.empty();
    }

    private static Refusal tooLong(String path, int length, RewardLimits limits) {
        return Refusal.invalid(path, path + " is " + length + " characters long, longer than the "
                + limits.maxTextChars() + " allowed (setting crucible.reward.max-text-chars)");
    }
}
