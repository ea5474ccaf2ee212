package dev.crucible.application.feedback;

import dev.crucible.domain.common.Outcome;
import dev.crucible.domain.common.Refusal;
import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.domain.tenancy.Caller;

/** Tenancy for feedback: a caller reaches only the projects of its own entity; others do not exist for it. */
final class ProjectAccess {

    private ProjectAccess() {
    }

    static Outcome<ProjectId> check(Caller caller, ProjectId project) {
        if (!project.entity().equals(caller.entity().value())) {
            return Outcome.refused(Refusal.notFound("project_id", "project " + project + " not found"));
        }
        return Outcome.done(project);
    }
}
