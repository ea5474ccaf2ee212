package dev.crucible.application.object;

import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.domain.object.NewObject;
import dev.crucible.domain.object.ObjectName;
import dev.crucible.domain.object.ObjectVersion;
import dev.crucible.domain.object.StoredObject;
import dev.crucible.domain.object.VersionSelector;
import java.util.Optional;

/**
 * Where object versions live. Every read is scoped by project; the caller has already checked that the project is
 * the caller's. Thread-safe; each method is one transaction. Infrastructure failures surface as unchecked exceptions.
 */
public interface ObjectStore {

    /**
     * Stores {@code object} as the next version of its name in its project (index 0 for the first, then one more than
     * the newest), unless a version with the same digest exists. Concurrent creates of one name are serialised, so
     * indices are unique and without gaps.
     *
     * @return the version written ({@code created}), or the existing one with that digest (nothing is written then)
     */
    ObjectVersion insertUnlessExists(NewObject object);

    /**
     * The live version of {@code name} in {@code project} that {@code version} selects, with
     * {@link StoredObject#latest()} telling whether it is the newest; empty when there is none.
     */
    Optional<StoredObject> find(ProjectId project, ObjectName name, VersionSelector version);
}
