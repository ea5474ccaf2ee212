package dev.crucible.application.feedback;

import dev.crucible.domain.feedback.ProjectId;

/**
 * Tells whether an annotation queue exists, for feedback that names the queue it came from. Implementations are
 * thread-safe; infrastructure failures surface as unchecked exceptions.
 */
public interface AnnotationQueueLookup {

    /**
     * Whether {@code project} has a queue with id {@code queueId} that is not deleted. A queue of another project
     * answers false, as does an id that is not a valid queue id.
     */
    boolean isLive(ProjectId project, String queueId);
}
