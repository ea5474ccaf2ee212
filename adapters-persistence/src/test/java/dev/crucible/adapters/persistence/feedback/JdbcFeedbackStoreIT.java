package dev.crucible.adapters.persistence.feedback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.crucible.adapters.persistence.StoreContext;
import dev.crucible.application.feedback.FeedbackStore;
import dev.crucible.domain.feedback.Feedback;
import dev.crucible.domain.feedback.FeedbackId;
import dev.crucible.domain.feedback.FeedbackQuery;
import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** Feedback rows on a real PostgreSQL: the payload as jsonb round-trips, ids conflict per project, replace, purge. */
class JdbcFeedbackStoreIT {

    private static final ProjectId PROJECT = new ProjectId("ada", "p");

    @AutoClose
    private final StoreContext stores = StoreContext.start();
    private final FeedbackStore feedback = stores.bean(FeedbackStore.class);

    private static Feedback row(ProjectId project, Map<String, Object> payload) {
        return new Feedback(FeedbackId.random(), project, "weave:///ada/p/object/o:abc", "u", Optional.of("me"),
                Instant.now().truncatedTo(ChronoUnit.MICROS), "custom", payload, Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty());
    }

    private List<Map<String, Object>> all(ProjectId project) {
        return feedback.query(new FeedbackQuery(project, List.of(), Optional.empty(), List.of(), OptionalLong.empty(),
                OptionalLong.empty())).orElseThrow();
    }

    @Test
    void aPayloadReadsBackAsWrittenAndOnlyInItsProject() {
        Map<String, Object> payload = Map.of("text", "tab\t bell\u0007 \ud83d\ude00", "n", 3, "x", 0.5, "ok", true,
                "list", List.of("a", Map.of("k", "v")));
        Feedback written = row(PROJECT, payload);
        feedback.insert(written).orElseThrow();
        feedback.insert(row(new ProjectId("bob", "p"), Map.of())).orElseThrow();

        List<Map<String, Object>> rows = all(PROJECT);

        assertEquals(List.of(written.toRow()), rows);
        assertEquals(payload, rows.getFirst().get("payload"));
    }

    @Test
    void anIdTakenInTheProjectIsAConflictAndReplaceKeepsTheOldRowThen() {
        Feedback first = row(PROJECT, Map.of("v", 1));
        Feedback second = row(PROJECT, Map.of("v", 2));
        feedback.insert(first).orElseThrow();
        feedback.insert(second).orElseThrow();

        Outcome<Feedback> taken = feedback.insert(first);
        assertEquals(Refusal.Reason.CONFLICT, assertInstanceOf(Outcome.Refused.class, taken).refusal().reason());
        Outcome<Feedback> clash = feedback.replace(PROJECT, second.id(), first);
        assertInstanceOf(Outcome.Refused.class, clash);
        assertEquals(2, all(PROJECT).size(), "nothing deleted by a refused replace");

        Feedback newer = row(PROJECT, Map.of("v", 3));
        feedback.replace(PROJECT, second.id(), newer).orElseThrow();
        assertEquals(Set.of(first.id().toString(), newer.id().toString()),
                all(PROJECT).stream().map(r -> r.get("id")).collect(Collectors.toSet()));

        assertEquals(1, feedback.purge(PROJECT, List.of(first.id(), FeedbackId.random())));
        assertEquals(List.of(newer.toRow()), all(PROJECT));
    }
}
