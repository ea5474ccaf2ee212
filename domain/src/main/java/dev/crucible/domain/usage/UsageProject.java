package dev.crucible.domain.usage;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.domain.tenancy.Names;
import java.util.Objects;

/**
 * The project a completion's tokens count against, written {@code <team>/<project>} (the {@code Compat-Project}
 * header). Both parts follow the entity and project name rule ({@link Names}: 1 to 128 characters, no {@code /},
 * {@code :}, whitespace or control characters, so never U+0000). A request that names no project counts against its
 * entity's {@value #DEFAULT} project, as an OpenAI key's requests without a project count against its default one.
 *
 * @param team the entity that owns the project
 * @param name the project's name within the team
 */
public record UsageProject(EntityName team, String name) {

    /** The project of requests that name none. */
    public static final String DEFAULT = "default";

    public UsageProject {
        Objects.requireNonNull(team, "team");
        Names.require("project", name);
    }

    /** The project that {@code entity}'s requests without a project header count against. */
    public static UsageProject defaultOf(EntityName entity) {
        return new UsageProject(entity, DEFAULT);
    }

    /**
     * Parses {@code <team>/<project>}; anything else (no slash, more than one, an empty or invalid part) is refused
     * as invalid, naming {@code param}.
     */
    public static Outcome<UsageProject> parse(String param, String text) {
        int slash = text.indexOf('/');
        if (slash < 0 || slash != text.lastIndexOf('/')) {
            return Outcome.refused(Refusal.invalid(param, param + " must be <team>/<project>, got '"
                    + text + "'"));
        }
        String team = text.substring(0, slash);
        String project = text.substring(slash + 1);
        String problem = Names.problem("the team of " + param, team);
        if (problem == null) {
            problem = Names.problem("the project of " + param, project);
        }
        return problem == null ? Outcome.done(new UsageProject(new EntityName(team), project))
                : Outcome.refused(Refusal.invalid(param, problem));
    }

    /**
     * Tenancy: a caller may count tokens only against its own entity's projects; another team is refused as
     * forbidden (the caller named that team itself, so the refusal reveals nothing it did not say).
     */
    public Outcome<UsageProject> usableBy(Caller caller, String param) {
        if (!team.equals(caller.entity())) {
            return Outcome.refused(new Refusal(Refusal.Reason.FORBIDDEN, param + " names team '" + team.value()
                    + "', but this API key belongs to '" + caller.entity().value() + "'", param));
        }
        return Outcome.done(this);
    }

    @Override
    public String toString() {
        return team.value() + "/" + name;
    }
}
