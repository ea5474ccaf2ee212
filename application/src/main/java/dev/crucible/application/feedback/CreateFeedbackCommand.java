package dev.crucible.application.feedback;

import dev.crucible.domain.feedback.FeedbackDraft;
import dev.crucible.domain.tenancy.Caller;
import java.util.Objects;

/** Store one feedback row for the caller. */
public record CreateFeedbackCommand(Caller caller, FeedbackDraft draft) {

    public CreateFeedbackCommand {
        Objects.requireNonNull(caller, "caller");
        Objects.requireNonNull(draft, "draft");
    }
}
