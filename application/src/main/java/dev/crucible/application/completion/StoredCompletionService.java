package dev.crucible.application.completion;

import dev.crucible.domain.completion.CompletionMetadata;
import dev.crucible.domain.completion.StoredCompletion;
import dev.crucible.domain.completion.StoredCompletionQuery;
import dev.crucible.domain.paging.Page;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads, re-tags and deletes an entity's stored completions through the {@link StoredCompletionStore}; another
 * entity's completion is "not found" ({@value #ID_PARAM}), exactly as a missing one.
 */
public record StoredCompletionService(StoredCompletionStore store) implements ListStoredCompletionsUseCase,
        GetStoredCompletionUseCase, UpdateStoredCompletionUseCase, DeleteStoredCompletionUseCase {

    static final String ID_PARAM = "completion_id";

    public StoredCompletionService {
        Objects.requireNonNull(store, "store");
    }

    @Override
    public Outcome<Page<StoredCompletion>> list(StoredCompletionQuery query) {
        if (query.after().isPresent() && store.find(query.entity(), query.after().get()).isEmpty()) {
            return Outcome.refused(Refusal.invalid("after", "after '" + query.after().get()
                    + "' is not one of your stored completions"));
        }
        List<StoredCompletion> fetched = store.fetch(query);
        boolean more = fetched.size() > query.limit();
        return Outcome.done(new Page<>(more ? fetched.subList(0, query.limit()) : fetched, more));
    }

    @Override
    public Outcome<StoredCompletion> get(Caller caller, String id) {
        return found(id, store.find(caller.entity(), id));
    }

    @Override
    public Outcome<StoredCompletion> replaceMetadata(Caller caller, String id, CompletionMetadata metadata) {
        return found(id, store.replaceMetadata(caller.entity(), id, metadata));
    }

    @Override
    public Outcome<String> delete(Caller caller, String id) {
        return store.delete(caller.entity(), id) ? Outcome.done(id) : notFound(id);
    }

    private static Outcome<StoredCompletion> found(String id, Optional<StoredCompletion> completion) {
        return completion.<Outcome<StoredCompletion>>map(Outcome::done).orElseGet(() -> notFound(id));
    }

    private static <T> Outcome<T> notFound(String id) {
        return Outcome.refused(Refusal.notFound(ID_PARAM, "No stored completion found with id '"
                + (id.length() > 64 ? id.substring(0, 64) + "…" : id) + "'"));
    }
}
