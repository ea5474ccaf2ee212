package dev.crucible.application.feedback;

import dev.crucible.domain.feedback.ProjectId;
import java.util.HashSet;
import java.util.Set;

/** Live annotation queues by project. */
final class FakeAnnotationQueues implements AnnotationQueueLookup {

    private final Set<String> live = new HashSet<>();

    FakeAnnotationQueues add(ProjectId project, String queueId) {
        live.add(project + "|" + queueId);
        return this;
    }

    @Override
    public boolean isLive(ProjectId project, String queueId) {
        return live.contains(project + "|" + queueId);
    }
}
