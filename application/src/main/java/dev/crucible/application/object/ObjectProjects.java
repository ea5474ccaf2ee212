package dev.crucible.application.object;

import dev.crucible.domain.common.Outcome;
import dev.crucible.domain.common.Refusal;
import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.domain.tenancy.Caller;

/**
 * Tenancy for objects, the same rule and message as feedback's: a caller reaches only the projects of its own
 * entity; others do not exist for it.
 */
final class ObjectProjects {

    private ObjectProjects() {
    }

    /** Parses {@code projectId} ({@code <entity>/<project>}) and refuses another entity's project as not found. */
    static Outcome<ProjectId> reachable(Caller caller, String projectId) {
        return ProjectId.parse(projectId).then(project -> project.entity().equals(caller.entity().value())
                ? Outcome.done(project)
                : Outcome.refused(Refusal.notFound("project_id", "project " + project + " not found")));
    }
}
