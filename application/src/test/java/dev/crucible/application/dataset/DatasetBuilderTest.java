package dev.crucible.application.dataset;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crucible.domain.completion.CompletionMetadata;
import dev.crucible.domain.completion.CompletionTokens;
import dev.crucible.domain.completion.StoredCompletion;
import dev.crucible.domain.dataset.DatasetKind;
import dev.crucible.domain.dataset.FeedbackPredicate;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.domain.usage.UsageProject;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class DatasetBuilderTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-01T00:00:00Z");
    private static final FeedbackPredicate THUMBS_UP = new FeedbackPredicate("thumbs", List.of("value"),
            Optional.of("up"), OptionalDouble.empty(), OptionalDouble.empty());
    private static final FeedbackPredicate RATING_AT_LEAST_4 = new FeedbackPredicate("rating", List.of("score"),
            Optional.empty(), OptionalDouble.of(4), OptionalDouble.empty());

    @Test
    void sftKeepsTheChatsWhoseLatestFeedbackPasses() throws Exception {
        List<StoredCompletion> completions = List.of(completion("a", "2+2?", "4"), completion("b", "3+3?", "7"),
                completion("c", "1+1?", "2"));
        List<CompletionFeedback> feedback = List.of(row("f1", "a", 1, Map.of("value", "up")),
                row("f2", "b", 1, Map.of("value", "down")),
                row("f3", "c", 1, Map.of("value", "down")), row("f4", "c", 2, Map.of("value", "up")));

        DatasetSnapshot snapshot = done(DatasetBuilder.build(DatasetKind.SFT, THUMBS_UP, completions, feedback,
                new FeedbackReward(THUMBS_UP)));

        assertEquals(List.of("a", "c"), snapshot.completions());
        assertEquals(List.of("f1", "f4"), snapshot.feedback());
        assertEquals(Map.of("messages", List.of(
                Map.of("role", "user", "content", "2+2?"), Map.of("role", "assistant", "content", "4"))), JSON.readValue(snapshot.lines().getFirst(), Map.class));
    }

    @Test
    void anAnswerWithoutToolCallsLeavesOutVllmsEmptyList() throws Exception {
        StoredCompletion answered = new StoredCompletion("a", new UsageProject(new EntityName("acme"), "default"), T0,
                "tiny", List.of(Map.of("role", "user", "content", "2+2?")),
                List.of(Map.of("index", 0, "message", Map.of("role", "assistant", "content", "4", "tool_calls",
                        List.of()), "finish_reason", "stop")),
                new CompletionTokens(3, 1), CompletionMetadata.empty(), Map.of());

        DatasetSnapshot snapshot = done(DatasetBuilder.build(DatasetKind.SFT, THUMBS_UP, List.of(answered),
                List.of(row("f1", "a", 1, Map.of("value", "up"))), new FeedbackReward(THUMBS_UP)));

        assertEquals(Map.of("messages", List.of(Map.of("role", "user", "content", "2+2?"),
                Map.of("role", "assistant", "content", "4"))), JSON.readValue(snapshot.lines().getFirst(), Map.class));
    }

    @Test
    void sftTakesANumericThreshold() {
        List<StoredCompletion> completions = List.of(completion("a", "q", "x"), completion("b", "q", "y"));
        List<CompletionFeedback> feedback = List.of(row("f1", "a", 1, Map.of("score", 5)),
                row("f2", "b", 1, Map.of("score", 3.5)));

        DatasetSnapshot snapshot = done(DatasetBuilder.build(DatasetKind.SFT, RATING_AT_LEAST_4, completions,
                feedback, new FeedbackReward(RATING_AT_LEAST_4)));

        assertEquals(List.of("a"), snapshot.completions());
    }

    @Test
    void preferencePairsTheBestAndWorstAnswerToOneInput() throws Exception {
        List<StoredCompletion> completions = List.of(completion("a", "q", "good"), completion("b", "q", "bad"),
                completion("c", "q", "middling"), completion("d", "other", "alone"));
        List<CompletionFeedback> feedback = List.of(row("f1", "a", 1, Map.of("score", 5)),
                row("f2", "b", 1, Map.of("score", 1)), row("f3", "c", 1, Map.of("score", 3)),
                row("f4", "d", 1, Map.of("score", 5)));

        DatasetSnapshot snapshot = done(DatasetBuilder.build(DatasetKind.PREFERENCE, RATING_AT_LEAST_4, completions,
                feedback, new FeedbackReward(RATING_AT_LEAST_4)));

        assertEquals(1, snapshot.lines().size());
        assertEquals(Map.of(
                "input", Map.of("messages", List.of(Map.of("role", "user", "content", "q"))),
                "preferred_output", List.of(Map.of("role", "assistant", "content", "good")),
                "non_preferred_output", List.of(Map.of("role", "assistant", "content", "bad"))), JSON.readValue(snapshot.lines().getFirst(), Map.class));
        assertEquals(List.of("a", "b"), snapshot.completions());
        assertEquals(List.of("f1", "f2"), snapshot.feedback());
    }

    @Test
    void rlGroupsTheRewardedAnswersToOneInput() throws Exception {
        List<StoredCompletion> completions = List.of(completion("a", "q", "x"), completion("b", "q", "y"),
                completion("c", "lonely", "z"));
        List<CompletionFeedback> feedback = List.of(row("f1", "a", 1, Map.of("score", 1)),
                row("f2", "b", 1, Map.of("score", 0.25)), row("f3", "c", 1, Map.of("score", 1)));

        DatasetSnapshot snapshot = done(DatasetBuilder.build(DatasetKind.RL, RATING_AT_LEAST_4, completions, feedback,
                new FeedbackReward(RATING_AT_LEAST_4)));

        assertEquals(1, snapshot.lines().size());
        Map<?, ?> group = JSON.readValue(snapshot.lines().getFirst(), Map.class);
        List<?> trajectories = (List<?>) group.get("trajectories");
        assertEquals(2, trajectories.size());
        Map<?, ?> first = (Map<?, ?>) trajectories.getFirst();
        assertEquals(1.0, first.get("reward"));
        assertEquals(List.of(Map.of("role", "user", "content", "q"),
                Map.of("index", 0, "message", Map.of("role", "assistant", "content", "x"), "finish_reason", "stop")),
                first.get("messages_and_choices"));
        assertEquals(List.of("a", "b"), snapshot.completions());
    }

    @Test
    void aRewardSourceOtherThanFeedbackScoresAnswersWithoutFeedback() {
        List<StoredCompletion> completions = List.of(completion("a", "q", "short"), completion("b", "q", "longer"));
        RewardSource byLength = (completion, row) -> OptionalDouble.of(completion.id().equals("a") ? 0 : 1);

        DatasetSnapshot snapshot = done(DatasetBuilder.build(DatasetKind.RL, RATING_AT_LEAST_4, completions,
                List.of(), byLength));

        assertEquals(List.of("a", "b"), snapshot.completions());
        assertTrue(snapshot.feedback().isEmpty());
    }

    @Test
    void refusesAnEmptyDatasetNamingTheFilter() {
        List<StoredCompletion> completions = List.of(completion("a", "q", "x"));
        List<CompletionFeedback> feedback = List.of(row("f1", "a", 1, Map.of("value", "down")));

        for (DatasetKind kind : DatasetKind.values()) {
            String message = assertRefused(DatasetBuilder.build(kind, THUMBS_UP, completions, feedback,
                    new FeedbackReward(THUMBS_UP)), Refusal.Reason.INVALID, "filter");
            assertTrue(message.contains("1 stored completion(s), 1 with feedback"), message);
        }
    }

    @Test
    void theSameInputGivesTheSameLines() {
        List<StoredCompletion> completions = List.of(completion("a", "q", "x"), completion("b", "q", "y"));
        List<CompletionFeedback> feedback = List.of(row("f1", "a", 1, Map.of("score", 5)),
                row("f2", "b", 1, Map.of("score", 1)));
        List<String> once = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            once.addAll(done(DatasetBuilder.build(DatasetKind.RL, RATING_AT_LEAST_4, completions, feedback,
                    new FeedbackReward(RATING_AT_LEAST_4))).lines());
        }
        assertEquals(once.get(0), once.get(1));
    }

    static StoredCompletion completion(String id, String question, String answer) {
        return new StoredCompletion(id, new UsageProject(new EntityName("acme"), "default"), T0, "tiny",
                List.of(Map.of("role", "user", "content", question)),
                List.of(Map.of("index", 0, "message", Map.of("role", "assistant", "content", answer),
                        "finish_reason", "stop")),
                new CompletionTokens(3, 1), CompletionMetadata.empty(), Map.of());
    }

    static CompletionFeedback row(String id, String completion, int second, Map<String, Object> payload) {
        return new CompletionFeedback(id, completion, T0.plusSeconds(second), payload);
    }

    @SuppressWarnings("unchecked")
    private static <T> T done(Outcome<T> outcome) {
        return ((Outcome.Done<T>) assertInstanceOf(Outcome.Done.class, outcome, outcome::toString)).value();
    }
}
