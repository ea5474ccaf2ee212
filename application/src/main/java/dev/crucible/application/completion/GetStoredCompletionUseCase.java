package dev.crucible.application.completion;

import dev.crucible.domain.completion.StoredCompletion;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;

/** Reads one of the caller's stored completions; another entity's is "not found", as a missing one is. */
public interface GetStoredCompletionUseCase {

    Outcome<StoredCompletion> get(Caller caller, String id);
}
