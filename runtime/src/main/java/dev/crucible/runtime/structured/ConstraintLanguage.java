package dev.crucible.runtime.structured;

/**
 * The language a structured-output constraint enforces: a byte automaton for regular constraints (regex, choice,
 * JSON schema, structural tags) or a context-free grammar, parsed incrementally. Immutable and thread-safe.
 */
public sealed interface ConstraintLanguage permits ByteDfa, ByteGrammar {
}
