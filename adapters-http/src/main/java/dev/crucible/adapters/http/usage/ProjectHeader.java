package dev.crucible.adapters.http.usage;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.usage.UsageProject;
import java.util.List;

/**
 * The project a request's tokens count against: {@code Compat-Project: <team>/<project>}, or OpenAI's name for it,
 * {@code OpenAI-Project}. Neither header: the caller's default project. A malformed value, two values, or the two
 * headers disagreeing is a 400 naming the header; a team other than the key's entity is a 403.
 */
public final class ProjectHeader {

    public static final String NAME = "Compat-Project";
    public static final String ALIAS = "OpenAI-Project";

    private ProjectHeader() {
    }

    /**
     * @param compat the {@value #NAME} header's values (empty when absent)
     * @param alias  the {@value #ALIAS} header's values (empty when absent)
     */
    public static Outcome<UsageProject> read(Caller caller, List<String> compat, List<String> alias) {
        if (compat.size() > 1 || alias.size() > 1) {
            String name = compat.size() > 1 ? NAME : ALIAS;
            return Outcome.refused(Refusal.invalid(name, name + " must be sent once, got " + Math.max(compat.size(),
                    alias.size()) + " values"));
        }
        if (compat.isEmpty() && alias.isEmpty()) {
            return Outcome.done(UsageProject.defaultOf(caller.entity()));
        }
        if (!compat.isEmpty() && !alias.isEmpty() && !compat.getFirst().equals(alias.getFirst())) {
            return Outcome.refused(Refusal.invalid(NAME, NAME + " and " + ALIAS + " name different projects: '"
                    + compat.getFirst() + "' and '" + alias.getFirst() + "'; send one of them"));
        }
        String name = compat.isEmpty() ? ALIAS : NAME;
        String value = compat.isEmpty() ? alias.getFirst() : compat.getFirst();
        return UsageProject.parse(name, value).then(project -> project.usableBy(caller, name));
    }
}
