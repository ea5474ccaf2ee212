package dev.crucible.runtime.structured;

import java.util.Objects;

/**
 * A compiled structured-output constraint: the byte automaton every output must match. Immutable and thread-safe,
 * so one constraint serves every sequence of every request that asks for it.
 *
 * @param key  identifies the language (the kind and its source), for caching masks; equal keys mean equal languages
 * @param dfa  the automaton over the output's UTF-8 bytes
 */
public record OutputConstraint(String key, ByteDfa dfa) {

    public OutputConstraint {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(dfa, "dfa");
    }
}
