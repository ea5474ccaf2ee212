package dev.crucible.application.feedback;

import dev.crucible.kernel.refusal.Outcome;

/**
 * {@code POST /feedback/purge}: deletes rows of one project of the caller's entity by id; ids with no row are
 * ignored. Answers how many rows went. Refused as not found for another entity's project.
 */
public interface PurgeFeedbackUseCase {

    Outcome<Integer> purge(PurgeFeedbackCommand command);
}
