package dev.crucible.application.object;

import static dev.crucible.application.object.ObjectFixtures.ACME;
import static dev.crucible.application.object.ObjectFixtures.CHAT;
import static dev.crucible.application.object.ObjectFixtures.CLOCK;
import static dev.crucible.application.object.ObjectFixtures.GLOBEX;
import static dev.crucible.application.object.ObjectFixtures.SPEC;
import static dev.crucible.application.object.ObjectFixtures.SPEC_DIGEST;
import static dev.crucible.application.object.ObjectFixtures.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.object.ObjectName;
import dev.crucible.domain.object.ObjectVersion;
import dev.crucible.domain.object.StoredObject;
import dev.crucible.domain.object.VersionSelector;
import dev.crucible.domain.tenancy.Caller;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CreateObjectServiceTest {

    private final InMemoryObjectStore store = new InMemoryObjectStore();
    private final CreateObjectUseCase create = new CreateObjectService(store, CLOCK);

    private Outcome<ObjectVersion> create(Caller caller, String project, String name, Object val, String builtin) {
        return create.create(new CreateObjectUseCase.Command(caller, project, name, val, Optional.ofNullable(builtin)));
    }

    private ObjectVersion created(String name, Object val) {
        return value(create(ACME, "acme/chat", name, val, null));
    }

    @Test
    void storesTheFirstVersionAsIndexZeroWithItsDigestWriterAndTime() {
        ObjectVersion version = value(create(ACME, "acme/chat", "quality", SPEC, "AnnotationSpec"));
        assertEquals(new ObjectVersion(new ObjectName("quality"), SPEC_DIGEST, 0, true), version);
        StoredObject stored = store.find(CHAT, new ObjectName("quality"), new VersionSelector.Latest()).orElseThrow();
        assertEquals(SPEC, stored.val());
        assertEquals(Optional.of("AnnotationSpec"), stored.baseObjectClass());
        assertEquals(ACME.userId(), stored.svcUserId());
        assertEquals(Instant.parse("2025-03-01T12:00:00.123456Z"), stored.createdAt(), "microseconds, as stored");
    }

    @Test
    void theSameValueAgainIsTheSameVersionAndWritesNothing() {
        ObjectVersion first = created("quality", SPEC);
        ObjectVersion again = created("quality", SPEC);
        assertEquals(first.digest(), again.digest());
        assertEquals(0, again.versionIndex());
        assertFalse(again.created());
        assertEquals(1, store.versionCount(CHAT, "quality"));
    }

    @Test
    void anotherValueIsTheNextVersion() {
        created("quality", SPEC);
        ObjectVersion second = created("quality", Map.of("field_schema", Map.of("type", "string")));
        assertEquals(1, second.versionIndex());
        assertTrue(second.created());
        assertNotEquals(SPEC_DIGEST, second.digest());
        assertEquals(0, created("other", SPEC).versionIndex(), "indices count per name");
    }

    @Test
    void aPlainValueMayBeAnyJsonIncludingNull() {
        assertEquals("dCNOmKYnSYX12vHzasLXiswzlGT5UHA7jAGYkvmCuQs", created("nothing", null).digest());
        assertEquals("WqdirjgYu3J688ejbUlApbjECpiUUtIwT8lYYz81Tno", created("greeting", "hello").digest());
    }

    @Test
    void anotherEntitysProjectIsNotFound() {
        assertRefused(create(GLOBEX, "acme/chat", "quality", SPEC, null), Refusal.Reason.NOT_FOUND, "project_id",
                "project acme/chat not found");
        assertEquals(0, store.versionCount(CHAT, "quality"));
    }

    @Test
    void refusesAMalformedProjectAndName() {
        assertRefused(create(ACME, "acme", "quality", SPEC, null), Refusal.Reason.INVALID, "project_id",
                "project_id must be <entity>/<project>, got 'acme'");
        assertRefused(create(ACME, "acme/chat", "a b", SPEC, null), Refusal.Reason.INVALID, "object_id",
                "object_id 'a b' contains invalid characters [' ']; use only letters, digits, underscores, periods "
                        + "and dashes");
    }

    @Test
    void refusesAnAnnotationSpecWithoutAnObjectFieldSchema() {
        assertRefused(create(ACME, "acme/chat", "quality", Map.of("field_schema", "int"), "AnnotationSpec"),
                Refusal.Reason.INVALID, "val.field_schema",
                "val.field_schema must be an object (a JSON Schema) for an AnnotationSpec, got a string");
        assertRefused(create(ACME, "acme/chat", "quality", SPEC, "Leaderboard"), Refusal.Reason.INVALID,
                "builtin_object_class", "Unknown object class: Leaderboard (this server knows only AnnotationSpec)");
        assertEquals(0, store.versionCount(CHAT, "quality"));
    }

    @Test
    void anAnnotationSpecWhosePatternNeedsBacktrackingIsRefusedNamingThePatternAndStoresNothing() {
        Map<String, Object> spec = Map.of("field_schema", Map.of("type", "object", "properties",
                Map.of("tag", Map.of("type", "string", "pattern", "^(a+)\\1$"))));
        Refusal refusal = ((Outcome.Refused<ObjectVersion>) create(ACME, "acme/chat", "tags", spec, "AnnotationSpec"))
                .refusal();
        assertEquals("val.field_schema.properties.tag.pattern", refusal.param());
        assertTrue(refusal.message().contains("backreference"), refusal.message());
        assertEquals(0, store.versionCount(CHAT, "tags"));
        // the same value is no program when it is not a spec
        value(create(ACME, "acme/chat", "tags", spec, null));
    }

    @Test
    void anAnnotationSpecPastTheSchemaBoundsIsRefusedNamingTheSetting() {
        CreateObjectUseCase small = new CreateObjectService(store, CLOCK,
                new dev.crucible.application.feedback.SpecLimits(1_000, 10_000, 3, 1_000_000));
        Map<String, Object> deep = Map.of("field_schema", Map.of("items", Map.of("items", Map.of("items",
                Map.of("type", "string")))));
        Refusal refusal = ((Outcome.Refused<ObjectVersion>) small.create(new CreateObjectUseCase.Command(ACME,
                "acme/chat", "deep", deep, Optional.of("AnnotationSpec")))).refusal();
        assertEquals("val.field_schema", refusal.param());
        assertTrue(refusal.message().contains("crucible.feedback.max-spec-schema-depth"), refusal.message());
    }
}
