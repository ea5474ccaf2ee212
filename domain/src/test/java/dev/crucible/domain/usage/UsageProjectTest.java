package dev.crucible.domain.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.tenancy.EntityName;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@code <team>/<project>}: two valid names, the team the caller's own, else refused naming the header. */
class UsageProjectTest {

    private static final EntityName ALICE = new EntityName("alice");

    @Test
    void parsesTeamAndProject() {
        Outcome<UsageProject> parsed = UsageProject.parse("Compat-Project", "alice/p-1.x");
        assertEquals(new Outcome.Done<>(new UsageProject(ALICE, "p-1.x")), parsed);
        assertEquals("alice/p-1.x", ((Outcome.Done<UsageProject>) parsed).value().toString());
    }

    @Test
    void refusesAnythingButTwoValidNamesNamingTheHeader() {
        for (String bad : List.of("", "alice", "/p", "alice/", "alice/p/q", "a b/p", "alice/p:1", "alice/\u0000",
                "alice/" + "x".repeat(129))) {
            Refusal refusal = assertInstanceOf(Outcome.Refused.class, UsageProject.parse("OpenAI-Project", bad))
                    .refusal();
            assertEquals(Refusal.Reason.INVALID, refusal.reason(), bad);
            assertEquals("OpenAI-Project", refusal.param(), bad);
        }
    }

    @Test
    void onlyTheCallersOwnTeamIsUsable() {
        Caller alice = new Caller(ALICE, UUID.randomUUID());
        UsageProject own = new UsageProject(ALICE, "p");
        assertEquals(new Outcome.Done<>(own), own.usableBy(alice, "Compat-Project"));
        Refusal refusal = assertInstanceOf(Outcome.Refused.class,
                new UsageProject(new EntityName("bob"), "p").usableBy(alice, "Compat-Project")).refusal();
        assertEquals(Refusal.Reason.FORBIDDEN, refusal.reason());
        assertEquals("Compat-Project", refusal.param());
    }

    @Test
    void theDefaultProjectIsNamedDefault() {
        assertEquals("alice/default", UsageProject.defaultOf(ALICE).toString());
        assertThrows(IllegalArgumentException.class, () -> new UsageProject(ALICE, "a/b"));
    }
}
