package dev.crucible.application.object;

import dev.crucible.domain.feedback.ProjectId;
import dev.crucible.domain.object.NewObject;
import dev.crucible.domain.object.ObjectName;
import dev.crucible.domain.object.ObjectVersion;
import dev.crucible.domain.object.StoredObject;
import dev.crucible.domain.object.VersionSelector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Versions per project and name, in creation order. */
final class InMemoryObjectStore implements ObjectStore {

    private final Map<String, List<NewObject>> versions = new LinkedHashMap<>();

    @Override
    public synchronized ObjectVersion insertUnlessExists(NewObject object) {
        List<NewObject> list = versions.computeIfAbsent(key(object.project(), object.name()), k -> new ArrayList<>());
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).digest().equals(object.digest())) {
                return new ObjectVersion(object.name(), object.digest(), i, false);
            }
        }
        list.add(object);
        return new ObjectVersion(object.name(), object.digest(), list.size() - 1, true);
    }

    @Override
    public synchronized Optional<StoredObject> find(ProjectId project, ObjectName name, VersionSelector version) {
        List<NewObject> list = versions.getOrDefault(key(project, name), List.of());
        int index = switch (version) {
            case VersionSelector.Latest latest -> list.size() - 1;
            case VersionSelector.Index i -> i.value() < list.size() ? i.value() : -1;
            case VersionSelector.Digest d -> indexOf(list, d.value());
        };
        if (index < 0) {
            return Optional.empty();
        }
        NewObject o = list.get(index);
        return Optional.of(new StoredObject(o.project(), o.name(), o.digest(), index, index == list.size() - 1,
                o.createdAt(), o.val(), o.baseObjectClass(), o.svcUserId()));
    }

    synchronized int versionCount(ProjectId project, String name) {
        return versions.getOrDefault(key(project, new ObjectName(name)), List.of()).size();
    }

    private static int indexOf(List<NewObject> list, String digest) {
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i).digest().equals(digest)) {
                return i;
            }
        }
        return -1;
    }

    private static String key(ProjectId project, ObjectName name) {
        return project + "/" + name;
    }
}
