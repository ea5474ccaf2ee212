package dev.crucible.application.dataset;

import dev.crucible.application.reward.GetRewardModelUseCase;
import dev.crucible.application.reward.ScoreRewardUseCase;
import dev.crucible.domain.completion.StoredCompletion;
import dev.crucible.domain.reward.RewardItem;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * The caller's reward models as dataset rewards: a completion's reward is the model's score of the pair (prompt,
 * answer) where the prompt is the text of the request's messages, in order, joined by newlines (string contents and
 * the {@code text} of text parts) and the answer the text of the first choice's message; feedback plays no part. A
 * completion the model cannot score (a text past {@code crucible.reward.max-text-chars}) has no reward and is left
 * out, as one without feedback is. Thread-safe.
 */
public record RewardModelScores(GetRewardModelUseCase models, ScoreRewardUseCase scores) implements RewardModels {

    private static final String PARAM = "reward.model";

    public RewardModelScores {
        Objects.requireNonNull(models, "models");
        Objects.requireNonNull(scores, "scores");
    }

    @Override
    public Outcome<RewardSource> source(Caller caller, String id) {
        return switch (models.get(new GetRewardModelUseCase.Command(caller, id))) {
            case Outcome.Done<?> found -> Outcome.done((completion, feedback) -> score(caller, id, completion));
            case Outcome.Refused<?> refused -> Outcome.refused(new Refusal(refused.refusal().reason(),
                    refused.refusal().message(), PARAM));
        };
    }

    private OptionalDouble score(Caller caller, String id, StoredCompletion completion) {
        var answer = DatasetBuilder.answer(completion);
        if (answer.isEmpty()) {
            return OptionalDouble.empty();
        }
        RewardItem item = new RewardItem(text(completion.messages()), text(List.of(answer.get())));
        return switch (scores.score(new ScoreRewardUseCase.Command(caller, id, List.of(item)))) {
            case Outcome.Done<List<Double>> done -> OptionalDouble.of(done.value().getFirst());
            case Outcome.Refused<List<Double>> refused -> OptionalDouble.empty();
        };
    }

    /** The messages' text, in order, one line per piece: string contents and the text of text parts. */
    static String text(List<Map<String, Object>> messages) {
        List<String> pieces = new ArrayList<>();
        for (Map<String, Object> message : messages) {
            switch (message.get("content")) {
                case String content -> pieces.add(content);
                case List<?> parts -> parts.forEach(part -> {
                    if (part instanceof Map<?, ?> p && "text".equals(p.get("type"))
                            && p.get("text") instanceof String t) {
                        pieces.add(t);
                    }
                });
                case null, default -> {
                }
            }
        }
        return String.join("\n", pieces);
    }
}
