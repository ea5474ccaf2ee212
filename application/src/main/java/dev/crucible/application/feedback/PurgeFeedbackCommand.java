package dev.crucible.application.feedback;

import dev.crucible.domain.feedback.FeedbackPurge;
import dev.crucible.domain.tenancy.Caller;
import java.util.Objects;

/** Delete feedback rows of one project by id. */
public record PurgeFeedbackCommand(Caller caller, FeedbackPurge purge) {

    public PurgeFeedbackCommand {
        Objects.requireNonNull(caller, "caller");
        Objects.requireNonNull(purge, "purge");
    }
}
