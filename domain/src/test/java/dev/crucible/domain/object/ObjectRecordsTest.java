package dev.crucible.domain.object;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.domain.feedback.ProjectId;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a new, stored and created object version require of their parts. */
class ObjectRecordsTest {

    private static final ProjectId PROJECT = new ProjectId("iris", "proj");
    private static final ObjectName NAME = new ObjectName("score");
    private static final Instant NOW = Instant.parse("2026-11-26T18:00:00Z");

    @Test
    void aNewObjectCarriesItsCanonicalTextAndItsDigest() {
        NewObject created = NewObject.of(PROJECT, NAME, Map.of("b", 1, "a", 2), Optional.empty(), "iris:1", NOW);
        assertEquals("{\"a\": 2, \"b\": 1}", created.canonicalJson());
        assertEquals(ObjectDigest.ofText("{\"a\": 2, \"b\": 1}"), created.digest());
        assertNull(NewObject.of(PROJECT, NAME, null, Optional.empty(), "iris:1", NOW).val(), "a null value is kept");
        assertEquals("svcUserId", assertThrows(NullPointerException.class,
                () -> NewObject.of(PROJECT, NAME, 1, Optional.empty(), null, NOW)).getMessage());
        assertEquals("createdAt", assertThrows(NullPointerException.class,
                () -> NewObject.of(PROJECT, NAME, 1, Optional.empty(), "iris:1", null)).getMessage());
    }

    @Test
    void aStoredObjectHasANonNegativeIndexAndItsParts() {
        StoredObject stored = new StoredObject(PROJECT, NAME, "d", 0, true, NOW, null, Optional.empty(), "iris:1");
        assertEquals(0, stored.versionIndex());
        assertEquals("versionIndex must be >= 0, got -1", assertThrows(IllegalArgumentException.class,
                () -> new StoredObject(PROJECT, NAME, "d", -1, true, NOW, 1, Optional.empty(), "iris:1")).getMessage());
        assertEquals("digest", assertThrows(NullPointerException.class,
                () -> new StoredObject(PROJECT, NAME, null, 0, true, NOW, 1, Optional.empty(), "iris:1")).getMessage());
        assertEquals("svcUserId", assertThrows(NullPointerException.class,
                () -> new StoredObject(PROJECT, NAME, "d", 0, true, NOW, 1, Optional.empty(), null)).getMessage());
    }

    @Test
    void aCreatedVersionHasANameADigestAndANonNegativeIndex() {
        assertEquals(3, new ObjectVersion(NAME, "d", 3, true).versionIndex());
        assertEquals("versionIndex must be >= 0, got -1", assertThrows(IllegalArgumentException.class,
                () -> new ObjectVersion(NAME, "d", -1, false)).getMessage());
        assertEquals("name", assertThrows(NullPointerException.class, () -> new ObjectVersion(null, "d", 0, false))
                .getMessage());
        assertEquals("digest", assertThrows(NullPointerException.class, () -> new ObjectVersion(NAME, null, 0, false))
                .getMessage());
    }
}
