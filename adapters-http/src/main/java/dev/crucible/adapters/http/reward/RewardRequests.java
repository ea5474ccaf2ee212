package dev.crucible.adapters.http.reward;

import dev.crucible.application.reward.FitRewardModelUseCase;
import dev.crucible.application.reward.ScoreRewardUseCase;
import dev.crucible.domain.reward.RewardExample;
import dev.crucible.domain.reward.RewardItem;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.reading.JsonReader;
import java.util.List;

/**
 * Reads reward-model request bodies into commands, refusing a wrong type where it is: {@code examples[3].label}.
 * Counts and text sizes are the use cases' to check, so that every source of examples meets the same bounds.
 */
final class RewardRequests {

    private RewardRequests() {
    }

    /** {@code {"name", "project", "examples": [{"prompt", "answer", "label"}, ...]}}. */
    static FitRewardModelUseCase.Command fit(Caller caller, JsonReader body) {
        String name = body.requireString("name");
        String project = body.requireString("project");
        body.requireArray("examples");
        List<RewardExample> examples = body.objects("examples").stream()
                .map(example -> new RewardExample(example.requireString("prompt"), example.requireString("answer"),
                        label(example)))
                .toList();
        return new FitRewardModelUseCase.Command(caller, project, name, examples);
    }

    /** {@code {"items": [{"prompt", "answer"}, ...]}}. */
    static ScoreRewardUseCase.Command score(Caller caller, String modelId, JsonReader body) {
        body.requireArray("items");
        List<RewardItem> items = body.objects("items").stream()
                .map(item -> new RewardItem(item.requireString("prompt"), item.requireString("answer")))
                .toList();
        return new ScoreRewardUseCase.Command(caller, modelId, items);
    }

    /** A boolean, or a score in [0, 1] where 0.5 and above is good. */
    private static boolean label(JsonReader example) {
        return switch (example.raw("label")) {
            case null -> throw example.missing("label");
            case Boolean good -> good;
            case Number score when score.doubleValue() >= 0 && score.doubleValue() <= 1 -> score.doubleValue() >= 0.5;
            case Object other -> throw example.reject("label", "must be a boolean or a score in [0, 1] (0.5 and "
                    + "above is good), got " + JsonReader.describe(other));
        };
    }
}
