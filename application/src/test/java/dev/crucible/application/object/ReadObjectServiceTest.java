package dev.crucible.application.object;

import static dev.crucible.application.object.ObjectFixtures.ACME;
import static dev.crucible.application.object.ObjectFixtures.CLOCK;
import static dev.crucible.application.object.ObjectFixtures.GLOBEX;
import static dev.crucible.application.object.ObjectFixtures.SPEC;
import static dev.crucible.application.object.ObjectFixtures.SPEC_DIGEST;
import static dev.crucible.application.object.ObjectFixtures.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.object.StoredObject;
import dev.crucible.domain.tenancy.Caller;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReadObjectServiceTest {

    private static final Map<String, Object> SECOND = Map.of("field_schema", Map.of("type", "string"));

    private final InMemoryObjectStore store = new InMemoryObjectStore();
    private final ReadObjectUseCase read = new ReadObjectService(store);

    @BeforeEach
    void twoVersions() {
        CreateObjectUseCase create = new CreateObjectService(store, CLOCK);
        for (Object val : new Object[] {SPEC, SECOND}) {
            value(create.create(new CreateObjectUseCase.Command(ACME, "acme/chat", "quality", val,
                    Optional.of("AnnotationSpec"))));
        }
    }

    private Outcome<StoredObject> read(Caller caller, String project, String name, String digest) {
        return read.read(new ReadObjectUseCase.Command(caller, project, name, digest));
    }

    @Test
    void readsAVersionByDigestIndexAliasOrLatest() {
        StoredObject byDigest = value(read(ACME, "acme/chat", "quality", SPEC_DIGEST));
        assertEquals(SPEC, byDigest.val());
        assertEquals(0, byDigest.versionIndex());
        assertFalse(byDigest.latest());
        assertEquals(SPEC_DIGEST, value(read(ACME, "acme/chat", "quality", "v0")).digest());
        StoredObject latest = value(read(ACME, "acme/chat", "quality", "latest"));
        assertEquals(SECOND, latest.val());
        assertEquals(1, latest.versionIndex());
        assertTrue(latest.latest());
        assertEquals(latest, value(read(ACME, "acme/chat", "quality", "v1")));
    }

    @ParameterizedTest
    @CsvSource({"acme/chat, quality, v2", "acme/chat, quality, nope", "acme/chat, missing, latest",
            "acme/chat, no/such name, latest", "acme/other, quality, latest"})
    void aMissingObjectOrVersionIsNotFound(String project, String name, String version) {
        assertRefused(read(ACME, project, name, version), Refusal.Reason.NOT_FOUND, "object_id",
                "Obj " + name + ":" + version + " not found");
    }

    @Test
    void anotherEntitysProjectIsNotFoundAndAMalformedOneInvalid() {
        assertRefused(read(GLOBEX, "acme/chat", "quality", "latest"), Refusal.Reason.NOT_FOUND, "project_id",
                "project acme/chat not found");
        assertRefused(read(ACME, "acme/chat/x", "quality", "latest"), Refusal.Reason.INVALID, "project_id",
                "project_id must be <entity>/<project>, got 'acme/chat/x'");
    }
}
