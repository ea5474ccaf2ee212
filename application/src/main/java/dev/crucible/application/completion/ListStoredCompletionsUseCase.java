package dev.crucible.application.completion;

import dev.crucible.domain.completion.StoredCompletion;
import dev.crucible.domain.completion.StoredCompletionQuery;
import dev.crucible.domain.paging.Page;
import dev.crucible.kernel.refusal.Outcome;

/** Lists an entity's stored completions, one page at a time; a cursor that is not one of them is refused. */
public interface ListStoredCompletionsUseCase {

    /** The page {@code query} asks for; refused as invalid ({@code after}) when its cursor is none of the entity's. */
    Outcome<Page<StoredCompletion>> list(StoredCompletionQuery query);
}
