package dev.crucible.runtime.template;

import java.util.Optional;

/** Searches a failure's cause chain: Jinjava wraps what a template's filter, function or budget threw. */
final class Causes {

    private Causes() {
    }

    /** The first of {@code e} and its causes that is a {@code type}; a cause that is its own cause ends the chain. */
    static <T extends Throwable> Optional<T> first(Throwable e, Class<T> type) {
        for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (type.isInstance(cause)) {
                return Optional.of(type.cast(cause));
            }
        }
        return Optional.empty();
    }
}
