package dev.crucible.adapters.persistence.object;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.adapters.persistence.StoreContext;
import dev.crucible.application.feedback.AnnotationSpecLookup;
import dev.crucible.application.object.ObjectStore;
import dev.crucible.domain.feedback.ObjectRef;
import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.domain.feedback.RefEdge;
import dev.crucible.domain.object.NewObject;
import dev.crucible.domain.object.ObjectName;
import dev.crucible.domain.object.ObjectVersion;
import dev.crucible.domain.object.StoredObject;
import dev.crucible.domain.object.VersionSelector;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * Weave objects on a real PostgreSQL: versions by content digest, the latest one, values as Python's JSON text
 * (infinities included) read back, and the annotation-spec lookup that follows a ref into a stored value.
 */
class JdbcObjectStoreIT {

    private static final ProjectId PROJECT = new ProjectId("ada", "p");
    private static final ObjectName NAME = new ObjectName("spec");

    @AutoClose
    private final StoreContext stores = StoreContext.start();
    private final ObjectStore objects = stores.bean(ObjectStore.class);

    private ObjectVersion put(Object val) {
        return objects.insertUnlessExists(NewObject.of(PROJECT, NAME, val, Optional.of("AnnotationSpec"), "u",
                Instant.now()));
    }

    @Test
    void aNewValueIsANewVersionAndTheSameValueIsNot() {
        Map<String, Object> first = Map.of("field_schema", Map.of("type", "number", "maximum", 5), "note", "é \ud83d\ude00");
        ObjectVersion v0 = put(first);
        ObjectVersion again = put(first);
        ObjectVersion v1 = put(Map.of("field_schema", Map.of("type", "string"), "inf", Double.POSITIVE_INFINITY));

        assertTrue(v0.created());
        assertFalse(again.created());
        assertEquals(v0.digest(), again.digest());
        assertEquals(List.of(0, 0, 1), List.of(v0.versionIndex(), again.versionIndex(), v1.versionIndex()));

        StoredObject latest = objects.find(PROJECT, NAME, new VersionSelector.Latest()).orElseThrow();
        assertEquals(v1.digest(), latest.digest());
        assertTrue(latest.latest());
        assertEquals(Map.of("field_schema", Map.of("type", "string"), "inf", Double.POSITIVE_INFINITY), latest.val());
        StoredObject old = objects.find(PROJECT, NAME, new VersionSelector.Digest(v0.digest())).orElseThrow();
        assertEquals(first, old.val());
        assertEquals(Optional.of("AnnotationSpec"), old.baseObjectClass());
        assertEquals(Optional.of(v0.digest()), objects.find(PROJECT, NAME, new VersionSelector.Index(0))
                .map(StoredObject::digest));
        assertEquals(Optional.empty(), objects.find(new ProjectId("bob", "p"), NAME, new VersionSelector.Latest()));
    }

    @Test
    void anAnnotationSpecRefIsFollowedIntoTheStoredValue() {
        put(Map.of("field_schema", Map.of("type", "number", "maximum", 5)));
        AnnotationSpecLookup specs = stores.bean(AnnotationSpecLookup.class);

        assertEquals(Optional.of(Map.of("type", "number", "maximum", 5)), specs.findSpec(PROJECT,
                new ObjectRef("weave", PROJECT, "spec", "latest", List.of(new RefEdge(RefEdge.Kind.KEY, "field_schema")))));
        assertEquals(Optional.empty(), specs.findSpec(PROJECT, new ObjectRef("weave", PROJECT, "missing", "latest",
                List.of())));
    }
}
