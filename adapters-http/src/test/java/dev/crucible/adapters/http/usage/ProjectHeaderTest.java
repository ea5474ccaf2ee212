package dev.crucible.adapters.http.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.domain.usage.UsageProject;
import java.util.List;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The project header: {@code <team>/<project>} of the caller's own team, else a 400 or a 403 naming the header. */
class ProjectHeaderTest {

    private static final Caller ALICE = new Caller(new EntityName("alice"), UUID.randomUUID());

    @Provide
    Arbitrary<String> names() {
        // any characters but '/', ':', whitespace and control characters, 1 to 128 of them
        return Arbitraries.strings().all().ofMinLength(1).ofMaxLength(128)
                .filter(s -> s.matches("[^/:\\s\\p{Cntrl}]{1,128}"));
    }

    @Property
    void acceptsEveryProjectOfTheCallersTeam(@ForAll("names") String project) {
        UsageProject read = done(ProjectHeader.read(ALICE, List.of("alice/" + project), List.of()));
        assertEquals(new UsageProject(new EntityName("alice"), project), read);
        assertEquals("alice/" + project, read.toString());
    }

    @Property
    void refusesAnotherTeamAsForbiddenNamingTheHeaderItCameIn(@ForAll("names") String team,
            @ForAll("names") String project) {
        if (team.equals("alice")) {
            return;
        }
        Refusal refusal = refused(ProjectHeader.read(ALICE, List.of(), List.of(team + "/" + project)));
        assertEquals(Refusal.Reason.FORBIDDEN, refusal.reason());
        assertEquals("OpenAI-Project", refusal.param());
    }

    @Property
    void refusesAValueWithoutExactlyOneSlashAsInvalid(@ForAll String value) {
        if (value.chars().filter(c -> c == '/').count() == 1) {
            return;
        }
        Refusal refusal = refused(ProjectHeader.read(ALICE, List.of(value), List.of()));
        assertEquals(Refusal.Reason.INVALID, refusal.reason());
        assertEquals("Compat-Project", refusal.param());
    }

    @Property
    void refusesControlCharactersAndEmptyPartsAsInvalid(@ForAll("names") String project,
            @ForAll("controls") char control) {
        for (String value : List.of("alice/" + project + control, "alice" + control + "/" + project, "/" + project,
                "alice/", "alice/" + "p".repeat(129))) {
            Refusal refusal = refused(ProjectHeader.read(ALICE, List.of(value), List.of()));
            assertEquals(Refusal.Reason.INVALID, refusal.reason(), value);
        }
    }

    @Provide
    Arbitrary<Character> controls() {
        return Arbitraries.of('\u0000', '\u0001', '\n', '\t', '\u007f');
    }

    @Example
    void noHeaderCountsAgainstTheDefaultProject() {
        assertEquals("alice/default", done(ProjectHeader.read(ALICE, List.of(), List.of())).toString());
    }

    @Example
    void bothHeadersMustAgree() {
        assertEquals("alice/p", done(ProjectHeader.read(ALICE, List.of("alice/p"), List.of("alice/p"))).toString());
        Refusal refusal = refused(ProjectHeader.read(ALICE, List.of("alice/p"), List.of("alice/q")));
        assertEquals(Refusal.Reason.INVALID, refusal.reason());
        assertEquals("Compat-Project", refusal.param());
    }

    @Example
    void aHeaderSentTwiceIsInvalid() {
        Refusal refusal = refused(ProjectHeader.read(ALICE, List.of(), List.of("alice/p", "alice/p")));
        assertEquals("OpenAI-Project", refusal.param());
    }

    private static UsageProject done(Outcome<UsageProject> outcome) {
        @SuppressWarnings("unchecked")
        Outcome.Done<UsageProject> done = assertInstanceOf(Outcome.Done.class, outcome, outcome::toString);
        return done.value();
    }

    private static Refusal refused(Outcome<UsageProject> outcome) {
        return assertInstanceOf(Outcome.Refused.class, outcome, outcome::toString).refusal();
    }
}
