package dev.crucible.domain.feedback;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.tenancy.Caller;
import java.util.Optional;

/**
 * The project a feedback row belongs to, written {@code <entity>/<project>}: exactly two non-empty segments.
 *
 * @param entity the tenant that owns the project
 * @param project the project name within the entity
 */
public record ProjectId(String entity, String project) {

    public ProjectId {
        requireSegment("entity", entity);
        requireSegment("project", project);
    }

    /** Parses {@code <entity>/<project>}; empty when {@code text} is not of that form. */
    public static Optional<ProjectId> tryParse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String[] parts = text.split("/", -1);
        if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ProjectId(parts[0], parts[1]));
    }

    /** Parses {@code <entity>/<project>}, refusing anything else as an invalid {@code project_id}. */
    public static Outcome<ProjectId> parse(String text) {
        return tryParse(text)
                .map(Outcome::done)
                .orElseGet(() -> Outcome.refused(Refusal.invalid("project_id", problem(text))));
    }

    /**
     * Tenancy: a caller reaches only the projects of its own entity; another entity's project does not exist for
     * it, so it is refused as a {@code project_id} not found (never as forbidden, which would confirm it exists).
     *
     * @param caller who is asking, never null
     * @return this project, or a not-found refusal when it belongs to another entity
     */
    public Outcome<ProjectId> reachableBy(Caller caller) {
        if (!entity.equals(caller.entity().value())) {
            return Outcome.refused(Refusal.notFound("project_id", "project " + this + " not found"));
        }
        return Outcome.done(this);
    }

    /** The message for a {@code project_id} that is not of the form {@code <entity>/<project>}. */
    public static String problem(String text) {
        return "project_id must be <entity>/<project>, got '" + text + "'";
    }

    private static void requireSegment(String what, String value) {
        if (value == null || value.isEmpty() || value.indexOf('/') >= 0) {
            throw new IllegalArgumentException(what + " must be a non-empty segment without '/', got '" + value + "'");
        }
    }

    @Override
    public String toString() {
        return entity + "/" + project;
    }
}
