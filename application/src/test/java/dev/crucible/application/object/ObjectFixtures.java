package dev.crucible.application.object;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.testsupport.outcome.OutcomeAssertions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.UUID;

/** Callers, a project, a spec and a clock for the object use-case tests. */
final class ObjectFixtures {

    static final Caller ACME =
            new Caller(new EntityName("acme"), UUID.fromString("00000000-0000-4000-8000-000000000001"));
    static final Caller GLOBEX =
            new Caller(new EntityName("globex"), UUID.fromString("00000000-0000-4000-8000-000000000003"));
    static final ProjectId CHAT = new ProjectId("acme", "chat");
    static final Instant NOW = Instant.parse("2025-03-01T12:00:00.123456789Z");
    static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    static final Map<String, Object> SPEC = Map.of("field_schema",
            Map.of("type", "integer", "minimum", 1, "maximum", 5), "unique_among_creators", true);
    /** {@code bytes_digest(json.dumps(SPEC, sort_keys=True).encode())}, computed with Python. */
    static final String SPEC_DIGEST = "LAzbhJbwLHjggwDUifdLJqILFV6YYdmjXGzZYhfs4uQ";

    private ObjectFixtures() {
    }

    /** Asserts a refusal for {@code reason} on {@code param} that says {@code message}. */
    static void assertRefused(Outcome<?> outcome, Refusal.Reason reason, String param, String message) {
        assertEquals(message, OutcomeAssertions.assertRefused(outcome, reason, param));
    }
}
