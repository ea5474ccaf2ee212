package dev.crucible.application.completion;

import dev.crucible.domain.completion.CompletionMetadata;
import dev.crucible.domain.completion.StoredCompletion;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;

/** Replaces the metadata of one of the caller's stored completions (OpenAI's update); not found as a get is. */
public interface UpdateStoredCompletionUseCase {

    Outcome<StoredCompletion> replaceMetadata(Caller caller, String id, CompletionMetadata metadata);
}
