package dev.crucible.adapters.persistence.completion;

import static dev.crucible.adapters.persistence.StoreContext.ADA;
import static dev.crucible.adapters.persistence.StoreContext.BOB;
import static dev.crucible.adapters.persistence.StoreContext.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.adapters.persistence.StoreContext;
import dev.crucible.application.completion.StoredCompletionStore;
import dev.crucible.domain.completion.CompletionMetadata;
import dev.crucible.domain.completion.CompletionTokens;
import dev.crucible.domain.completion.StoredCompletion;
import dev.crucible.domain.completion.StoredCompletionQuery;
import dev.crucible.domain.paging.SortOrder;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.domain.usage.UsageProject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Stored completions on a real PostgreSQL: a batch in storing order (a duplicate id skipped), each filter, pages in
 * both directions, metadata replaced, deletion, and another entity seeing none of it.
 */
class JdbcStoredCompletionStoreIT {

    @AutoClose
    private final StoreContext stores = StoreContext.start();
    private final StoredCompletionStore store = stores.bean(StoredCompletionStore.class);

    private static StoredCompletion completion(EntityName entity, String project, String id, String model, int second,
            Map<String, String> metadata) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("role", "user");
        message.put("content", "hi " + id);
        message.put("name", null);
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("role", "assistant");
        answer.put("content", "hello");
        answer.put("tool_calls", List.of());
        Map<String, Object> choice = new LinkedHashMap<>();
        choice.put("index", 0);
        choice.put("message", answer);
        choice.put("logprobs", null);
        choice.put("finish_reason", "stop");
        return new StoredCompletion(id, new UsageProject(entity, project), T0.plusSeconds(second), model,
                List.of(message), List.of(choice), new CompletionTokens(5, 2), new CompletionMetadata(metadata),
                Map.of("temperature", 0.5, "stop", List.of("x")));
    }

    /** Ada's c0..c5 (models a and b alternating, tag even/odd, c0..c2 in project p1), and Bob's c0 in one batch. */
    private List<StoredCompletion> seed() {
        List<StoredCompletion> made = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            made.add(completion(ADA, i < 3 ? "p1" : "default", "chatcmpl-" + i, i % 2 == 0 ? "a" : "b", i,
                    Map.of("tag", i % 2 == 0 ? "even" : "odd", "n", String.valueOf(i))));
        }
        List<StoredCompletion> batch = new ArrayList<>(made);
        batch.add(completion(BOB, "default", "chatcmpl-0", "a", 0, Map.of("tag", "even")));
        batch.add(completion(ADA, "p1", "chatcmpl-0", "z", 9, Map.of()));
        assertEquals(7, store.insertAll(batch), "the second chatcmpl-0 of ada is skipped; bob's is his own");
        return made;
    }

    private List<String> ids(StoredCompletionQuery query) {
        return store.fetch(query).stream().map(StoredCompletion::id).toList();
    }

    private static StoredCompletionQuery query(Optional<String> model, Map<String, String> metadata,
            Optional<String> after, int limit, SortOrder order) {
        return new StoredCompletionQuery(ADA, Optional.empty(), model, metadata, Optional.empty(), Optional.empty(),
                Set.of(), after, limit, order);
    }

    @Test
    void aBatchReadsBackAsStoredAndTheFirstOfAnIdWins() {
        List<StoredCompletion> made = seed();
        StoredCompletion back = store.find(ADA, "chatcmpl-0").orElseThrow();
        assertEquals(made.getFirst(), back);
        assertEquals("a", back.model());
        assertEquals(null, back.messages().getFirst().get("name"), "a JSON null is kept");
        assertTrue(back.messages().getFirst().containsKey("name"));
        assertEquals(List.of("role", "content", "name"), List.copyOf(back.messages().getFirst().keySet()),
                "messages keep the order they were sent in");
    }

    @Test
    void everyFilterSelectsAndPagesWalkBothWays() {
        seed();
        assertEquals(List.of("chatcmpl-0", "chatcmpl-1", "chatcmpl-2", "chatcmpl-3", "chatcmpl-4", "chatcmpl-5"),
                ids(StoredCompletionQuery.all(ADA, 100)));
        assertEquals(List.of("chatcmpl-1", "chatcmpl-3", "chatcmpl-5"),
                ids(query(Optional.of("b"), Map.of(), Optional.empty(), 100, SortOrder.ASC)));
        assertEquals(List.of("chatcmpl-4", "chatcmpl-2", "chatcmpl-0"),
                ids(query(Optional.empty(), Map.of("tag", "even"), Optional.empty(), 100, SortOrder.DESC)));
        assertEquals(List.of("chatcmpl-4"),
                ids(query(Optional.empty(), Map.of("tag", "even", "n", "4"), Optional.empty(), 100, SortOrder.ASC)),
                "every metadata pair must match");
        assertEquals(List.of(), ids(query(Optional.of("a"), Map.of("tag", "odd"), Optional.empty(), 100,
                SortOrder.ASC)));
        assertEquals(List.of("chatcmpl-0", "chatcmpl-1", "chatcmpl-2"), ids(new StoredCompletionQuery(ADA,
                Optional.of("p1"), Optional.empty(), Map.of(), Optional.empty(), Optional.empty(), Set.of(),
                Optional.empty(), 100, SortOrder.ASC)));
        assertEquals(List.of("chatcmpl-2", "chatcmpl-3"), ids(new StoredCompletionQuery(ADA, Optional.empty(),
                Optional.empty(), Map.of(), Optional.of(T0.plusSeconds(2)), Optional.of(T0.plusSeconds(4)), Set.of(),
                Optional.empty(), 100, SortOrder.ASC)), "created from (inclusive) before (exclusive)");
        assertEquals(List.of("chatcmpl-1", "chatcmpl-4"), ids(new StoredCompletionQuery(ADA, Optional.empty(),
                Optional.empty(), Map.of(), Optional.empty(), Optional.empty(), Set.of("chatcmpl-4", "chatcmpl-1",
                "chatcmpl-9"), Optional.empty(), 100, SortOrder.ASC)));

        assertEquals(List.of("chatcmpl-0", "chatcmpl-1", "chatcmpl-2"),
                ids(query(Optional.empty(), Map.of(), Optional.empty(), 2, SortOrder.ASC)), "limit + 1 rows fetched");
        assertEquals(List.of("chatcmpl-3", "chatcmpl-4", "chatcmpl-5"),
                ids(query(Optional.empty(), Map.of(), Optional.of("chatcmpl-2"), 5, SortOrder.ASC)));
        assertEquals(List.of("chatcmpl-1", "chatcmpl-0"),
                ids(query(Optional.empty(), Map.of(), Optional.of("chatcmpl-2"), 5, SortOrder.DESC)));
        assertEquals(List.of("chatcmpl-5", "chatcmpl-3"),
                ids(query(Optional.of("b"), Map.of(), Optional.empty(), 1, SortOrder.DESC)));
    }

    @Test
    void metadataIsReplacedWholeAndDeletionRemovesTheCompletion() {
        seed();
        StoredCompletion updated = store.replaceMetadata(ADA, "chatcmpl-1", new CompletionMetadata(Map.of("k", "v")))
                .orElseThrow();
        assertEquals(Map.of("k", "v"), updated.metadata().pairs());
        assertEquals(List.of("chatcmpl-1"), ids(query(Optional.empty(), Map.of("k", "v"), Optional.empty(), 10,
                SortOrder.ASC)));
        assertEquals(List.of("chatcmpl-3", "chatcmpl-5"), ids(query(Optional.empty(), Map.of("tag", "odd"),
                Optional.empty(), 10, SortOrder.ASC)), "the old pairs are gone");
        assertTrue(store.delete(ADA, "chatcmpl-1"));
        assertFalse(store.delete(ADA, "chatcmpl-1"));
        assertEquals(Optional.empty(), store.find(ADA, "chatcmpl-1"));
        assertEquals(Optional.empty(), store.replaceMetadata(ADA, "chatcmpl-1", CompletionMetadata.empty()));
    }

    @Test
    void anotherEntitySeesNoneOfIt() {
        seed();
        assertEquals(List.of("chatcmpl-0"), ids(StoredCompletionQuery.all(BOB, 100)));
        assertEquals(Optional.empty(), store.find(BOB, "chatcmpl-1"));
        assertEquals(Optional.empty(), store.replaceMetadata(BOB, "chatcmpl-1", CompletionMetadata.empty()));
        assertFalse(store.delete(BOB, "chatcmpl-1"));
        assertTrue(store.find(ADA, "chatcmpl-1").isPresent());
        assertEquals(Map.of("tag", "even"), store.find(BOB, "chatcmpl-0").orElseThrow().metadata().pairs());
    }
}
