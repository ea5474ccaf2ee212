package dev.crucible.application.feedback;

import dev.crucible.kernel.refusal.Outcome;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /feedback/query}: the matching rows of one project of the caller's entity, in the row shape
 * {@link FeedbackStore#query} describes. Refused as not found for another entity's project.
 */
public interface QueryFeedbackUseCase {

    Outcome<List<Map<String, Object>>> query(QueryFeedbackCommand command);
}
