package dev.crucible.application.completion;

import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;

/** Deletes one of the caller's stored completions; not found as a get is. */
public interface DeleteStoredCompletionUseCase {

    /** @return the deleted id */
    Outcome<String> delete(Caller caller, String id);
}
