package dev.crucible.kernel.python;

import java.util.Collection;
import java.util.Map;

/**
 * Python's truth value of a parsed JSON value or a template's argument, as {@code bool(x)} gives it: {@code None},
 * {@code False}, zero, the empty string and empty lists and dicts are false, anything else true. vLLM's
 * before-validators test request fields this way ({@code data.get(key)}), and transformers' {@code tojson} its flags.
 */
public final class PythonTruth {

    private PythonTruth() {
    }

    /** {@code bool(value)}; a Java {@code null} is Python's {@code None}. */
    public static boolean of(Object value) {
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
