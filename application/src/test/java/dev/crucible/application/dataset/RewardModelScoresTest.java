package dev.crucible.application.dataset;

import static dev.crucible.application.dataset.DatasetBuilderTest.completion;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.crucible.application.reward.ScoreRewardUseCase;
import dev.crucible.domain.completion.StoredCompletion;
import dev.crucible.domain.reward.RewardItem;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class RewardModelScoresTest {

    private final List<List<RewardItem>> calls = new ArrayList<>();
    /** Scores an answer by its length over ten; refuses model "gone". */
    private final ScoreRewardUseCase lengths = command -> {
        if (command.modelId().equals("gone")) {
            return Outcome.refused(Refusal.notFound("reward_model_id", "No such reward model: gone"));
        }
        calls.add(command.items());
        return Outcome.done(command.items().stream().map(i -> i.answer().length() / 10.0).toList());
    };

    @Test
    void scoresEveryAnswerAsItsPromptAndAnswerTextInBatches() {
        List<StoredCompletion> completions = List.of(completion("a", "2+2?", "four"), completion("b", "2+2?", "4"),
                completion("c", "1+1?", "two"));
        Outcome<RewardSource> built = new RewardModelScores(lengths, 2).source(caller(), "rm", completions);
        RewardSource source = ((Outcome.Done<RewardSource>) assertInstanceOf(Outcome.Done.class, built)).value();

        assertEquals(List.of(List.of(new RewardItem("2+2?", "four"), new RewardItem("2+2?", "4")),
                List.of(new RewardItem("1+1?", "two"))), calls);
        assertEquals(OptionalDouble.of(0.4), source.score(completions.get(0), Optional.empty()));
        assertEquals(OptionalDouble.of(0.3), source.score(completions.get(2), Optional.empty()));
        assertEquals(OptionalDouble.empty(), source.score(completion("z", "q", "a"), Optional.empty()));
    }

    @Test
    void aRefusalNamesRewardModel() {
        Outcome<RewardSource> refused = new RewardModelScores(lengths, 2).source(caller(), "gone",
                List.of(completion("a", "q", "x")));

        Refusal refusal = assertInstanceOf(Outcome.Refused.class, refused).refusal();
        assertEquals(Refusal.Reason.NOT_FOUND, refusal.reason());
        assertEquals("reward.model", refusal.param());
    }

    private static Caller caller() {
        return new Caller(new EntityName("acme"), UUID.randomUUID());
    }
}
