package dev.crucible.domain.object;

import dev.crucible.domain.feedback.RefEdge;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Follows a ref's edges into an object's value, as Weave's ref reader does: {@code key} and {@code attr} read an
 * object's member, {@code index} a list element (negative counts from the end, as in Python). An {@code id} edge
 * (a table row), a missing member, an index out of range or a step into a non-container finds nothing.
 */
public final class ValuePath {

    private ValuePath() {
    }

    /** The value at {@code edges} inside {@code val}; empty when there is none (or it is a JSON null). */
    public static Optional<Object> resolve(Object val, List<RefEdge> edges) {
        Object current = val;
        for (RefEdge edge : edges) {
            current = switch (edge.kind()) {
                case KEY, ATTR -> current instanceof Map<?, ?> map ? map.get(edge.value()) : null;
                case INDEX -> current instanceof List<?> list ? element(list, edge.value().strip()) : null;
                case ID -> null;
            };
            if (current == null) {
                return Optional.empty();
            }
        }
        return Optional.ofNullable(current);
    }

    private static Object element(List<?> list, String index) {
        long i;
        try {
            i = Long.parseLong(index);
        } catch (NumberFormatException tooLarge) {
            return null;
        }
        long at = i < 0 ? list.size() + i : i;
        return at >= 0 && at < list.size() ? list.get((int) at) : null;
    }
}
