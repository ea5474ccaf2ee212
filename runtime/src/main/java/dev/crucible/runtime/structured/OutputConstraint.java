package dev.crucible.runtime.structured;

import java.util.Objects;

/**
 * A compiled structured-output constraint: the language every output must belong to, a byte automaton or a grammar.
 * Immutable and thread-safe, so one constraint serves every sequence of every request that asks for it.
 *
 * @param key      identifies the language (the kind and its source), for caching masks; equal keys mean equal
 *                 languages
 * @param language the automaton or grammar over the output's UTF-8 bytes
 */
public record OutputConstraint(String key, ConstraintLanguage language) {

    public OutputConstraint {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(language, "language");
    }

    /**
     * The automaton of a regular constraint.
     *
     * @throws IllegalStateException for a grammar constraint, which has none
     */
    public ByteDfa dfa() {
        if (language instanceof ByteDfa dfa) {
            return dfa;
        }
        throw new IllegalStateException("constraint " + key + " is a grammar, not an automaton");
    }
}
