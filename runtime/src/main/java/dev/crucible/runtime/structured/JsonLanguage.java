package dev.crucible.runtime.structured;

import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.util.automaton.Automata;
import org.apache.lucene.util.automaton.Automaton;
import org.apache.lucene.util.automaton.Operations;

/**
 * The building blocks of JSON text as automata over code points: scalars, strings, and objects and arrays
 * around given member languages, with a whitespace language between tokens. Nesting is a counter a DFA cannot
 * keep unbounded, so "any JSON value" nests at most {@link #ANY_DEPTH} levels. Immutable.
 *
 * @param whitespace what may stand between JSON tokens (a tenant's pattern, copied between every two tokens)
 * @param budget     bounds what {@link #any} expands to, level by level
 */
record JsonLanguage(Automaton whitespace, StateBudget budget) {

    /** JSON with {@code whitespace} between tokens, unbounded: for the server's own languages. */
    JsonLanguage(Automaton whitespace) {
        this(whitespace, StateBudget.UNBOUNDED);
    }

    /**
     * How deep arbitrary JSON (json_object, a schema without a type) may nest objects and arrays. The DFA must
     * remember the kinds of the open containers, so its size grows about fourfold per level: 4 levels is about
     * 16,000 states, compiled in under half a second (once; compiled constraints are cached).
     */
    static final int ANY_DEPTH = 4;

    /** One character of a JSON string as written: unescaped, or an escape. */
    static Automaton stringChar() {
        Automaton escape = RegexParser.parse("\\\\([\"\\\\/bfnrt]|u[0-9a-fA-F]{4})");
        return Operations.union(List.of(plainChar().automaton(), escape));
    }

    /** The characters a JSON string may hold without escaping. */
    static CodePointSet plainChar() {
        return CodePointSet.of('"', '"').union(CodePointSet.of('\\', '\\')).union(CodePointSet.of(0, 0x1F))
                .complement();
    }

    static Automaton string() {
        return seq(lit("\""), Operations.repeat(stringChar()), lit("\""));
    }

    static Automaton number() {
        return RegexParser.parse("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
    }

    static Automaton integer() {
        return RegexParser.parse("-?(0|[1-9][0-9]*)");
    }

    static Automaton scalar() {
        return Operations.union(List.of(string(), number(), lit("true"), lit("false"), lit("null")));
    }

    /** Any JSON value nesting at most {@code depth} levels of objects and arrays. */
    Automaton any(int depth) {
        if (depth == 0) {
            return scalar();
        }
        Automaton inner = any(depth - 1);
        // an object's members and an array's items each stand twice
        budget.reserveCopies(inner, 4);
        return budget.check(Operations.union(List.of(scalar(), map(inner), array(inner, 0, -1))));
    }

    /** An object whose keys are any strings and whose values are {@code value}. */
    Automaton map(Automaton value) {
        Automaton member = member(string(), value);
        return object(Operations.optional(seq(member, Operations.repeat(seq(comma(), member)))));
    }

    /** {@code {}} around {@code members} (which holds its own commas). */
    Automaton object(Automaton members) {
        return seq(lit("{"), whitespace, members, whitespace, lit("}"));
    }

    /** {@code key: value} with whitespace around the colon. */
    Automaton member(Automaton key, Automaton value) {
        return seq(key, whitespace, lit(":"), whitespace, value);
    }

    Automaton comma() {
        return seq(whitespace, lit(","), whitespace);
    }

    /** An array of {@code min} to {@code max} (-1: unbounded) items. */
    Automaton array(Automaton item, int min, int max) {
        if (max == 0) {
            return seq(lit("["), whitespace, lit("]"));
        }
        Automaton rest = seq(comma(), item);
        int restMin = Math.max(0, min - 1);
        Automaton tail = max >= 0 ? Operations.repeat(rest, restMin, max - 1)
                : restMin == 0 ? Operations.repeat(rest) : Operations.repeat(rest, restMin);
        Automaton items = seq(item, tail);
        return seq(lit("["), whitespace, min == 0 ? Operations.optional(items) : items, whitespace, lit("]"));
    }

    static Automaton lit(String s) {
        return Automata.makeString(s);
    }

    static Automaton seq(Automaton... parts) {
        return Operations.concatenate(new ArrayList<>(List.of(parts)));
    }
}
