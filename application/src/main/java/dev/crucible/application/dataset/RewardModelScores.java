package dev.crucible.application.dataset;

import dev.crucible.application.reward.ScoreRewardUseCase;
import dev.crucible.domain.completion.StoredCompletion;
import dev.crucible.domain.reward.RewardItem;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * Scores a dataset's answers with one of the caller's reward models ({@link ScoreRewardUseCase}), {@code batch} at a
 * time: each answer as the pair (its request's message texts joined by newlines, its answer's text). Every refusal
 * names {@code reward.model}.
 */
public record RewardModelScores(ScoreRewardUseCase scores, int batch) implements RewardModels {

    public RewardModelScores {
        Objects.requireNonNull(scores, "scores");
        if (batch < 1) {
            throw new IllegalArgumentException("batch must be >= 1, got " + batch);
        }
    }

    @Override
    public Outcome<RewardSource> source(Caller caller, String id, List<StoredCompletion> completions) {
        List<StoredCompletion> answered = completions.stream()
                .filter(c -> DatasetBuilder.answer(c).isPresent()).toList();
        Map<String, Double> scored = new HashMap<>();
        for (int from = 0; from < answered.size(); from += batch) {
            List<StoredCompletion> chunk = answered.subList(from, Math.min(answered.size(), from + batch));
            Outcome<List<Double>> result = scores.score(new ScoreRewardUseCase.Command(caller, id,
                    chunk.stream().map(RewardModelScores::item).toList()));
            switch (result) {
                case Outcome.Done<List<Double>> done -> {
                    for (int i = 0; i < chunk.size(); i++) {
                        scored.put(chunk.get(i).id(), done.value().get(i));
                    }
                }
                case Outcome.Refused<List<Double>> refused -> {
                    Refusal why = refused.refusal();
                    return Outcome.refused(new Refusal(why.reason(), "reward.model: " + why.message(),
                            "reward.model"));
                }
            }
        }
        return Outcome.done((completion, feedback) -> scored.containsKey(completion.id())
                ? OptionalDouble.of(scored.get(completion.id())) : OptionalDouble.empty());
    }

    /** The pair a reward model scores: what was asked and what was answered, as text. */
    static RewardItem item(StoredCompletion completion) {
        return new RewardItem(prompt(completion.messages()), answer(DatasetBuilder.answer(completion).orElseThrow()));
    }

    /** A request's text as a reward model reads it: its messages' texts, one line each, empty ones left out. */
    static String prompt(List<Map<String, Object>> messages) {
        return messages.stream().map(m -> text(m.get("content"))).filter(t -> !t.isEmpty())
                .collect(Collectors.joining("\n"));
    }

    /** An answer's text as a reward model reads it: its message's content. */
    static String answer(Map<String, Object> message) {
        return text(message.get("content"));
    }

    /** A message content's text: the string, or its text parts joined; anything else is empty. */
    private static String text(Object content) {
        if (content instanceof String text) {
            return text;
        }
        if (content instanceof List<?> parts) {
            return parts.stream().filter(p -> p instanceof Map<?, ?> map && map.get("text") instanceof String)
                    .map(p -> (String) ((Map<?, ?>) p).get("text")).collect(Collectors.joining());
        }
        return "";
    }
}
