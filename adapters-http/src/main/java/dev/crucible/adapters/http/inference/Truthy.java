package dev.crucible.adapters.http.inference;

import java.util.Collection;
import java.util.Map;

/** Python truthiness of a raw JSON value, as vLLM's before-validators test {@code data.get(key)}. */
final class Truthy {

    private Truthy() {
    }

    static boolean of(Object value) {
        return switch (value) {
            case null -> false;
            case Boolean b -> b;
            case Number n -> n.doubleValue() != 0;
            case String s -> !s.isEmpty();
            case Collection<?> c -> !c.isEmpty();
            case Map<?, ?> m -> !m.isEmpty();
            default -> true;
        };
    }
}
