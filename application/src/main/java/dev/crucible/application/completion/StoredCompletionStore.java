package dev.crucible.application.completion;

import dev.crucible.domain.completion.CompletionMetadata;
import dev.crucible.domain.completion.StoredCompletion;
import dev.crucible.domain.completion.StoredCompletionQuery;
import dev.crucible.domain.tenancy.EntityName;
import java.util.List;
import java.util.Optional;

/**
 * Where stored completions live. Every read and write is scoped to one entity: another entity's completion is
 * absent. Thread-safe; each call is its own transaction. Failures of the storage itself are runtime exceptions.
 */
public interface StoredCompletionStore {

    /**
     * Stores {@code completions} in one transaction, in list order (the listing order). A completion whose id its
     * entity already has is skipped: the first one kept wins.
     *
     * @return how many were stored
     */
    int insertAll(List<StoredCompletion> completions);

    /** The entity's completion {@code id}, if it has one. */
    Optional<StoredCompletion> find(EntityName entity, String id);

    /**
     * Up to {@link StoredCompletionQuery#fetchSize()} completions matching {@code query}, in its order, starting after
     * its cursor; the caller has checked that the cursor is one of the entity's completions.
     */
    List<StoredCompletion> fetch(StoredCompletionQuery query);

    /** Replaces the metadata of the entity's completion {@code id}; the updated completion, or empty if none. */
    Optional<StoredCompletion> replaceMetadata(EntityName entity, String id, CompletionMetadata metadata);

    /** Deletes the entity's completion {@code id}; false if it had none. */
    boolean delete(EntityName entity, String id);
}
