package dev.crucible.application.feedback;

import dev.crucible.domain.feedback.FeedbackQuery;
import dev.crucible.domain.tenancy.Caller;
import java.util.Objects;

/** Read feedback rows of one project. */
public record QueryFeedbackCommand(Caller caller, FeedbackQuery query) {

    public QueryFeedbackCommand {
        Objects.requireNonNull(caller, "caller");
        Objects.requireNonNull(query, "query");
    }
}
