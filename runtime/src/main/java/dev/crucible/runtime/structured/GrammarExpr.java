package dev.crucible.runtime.structured;

import java.util.List;

/**
 * One expression of a parsed grammar rule (the xgrammar dialect of GBNF). Immutable.
 */
sealed interface GrammarExpr {

    /**
     * Whether the expression names no rule, so it is a regular language on its own: one switch over the kinds says
     * which are.
     */
    default boolean regular() {
        return switch (this) {
            case Choice choice -> choice.options().stream().allMatch(GrammarExpr::regular);
            case Sequence sequence -> sequence.parts().stream().allMatch(GrammarExpr::regular);
            case Literal _, CharClass _ -> true;
            case Reference _ -> false;
            case Repeat repeat -> repeat.body().regular();
        };
    }

    /** One of several alternatives. */
    record Choice(List<GrammarExpr> options) implements GrammarExpr {
        public Choice {
            options = List.copyOf(options);
        }
    }

    /** The parts one after the other; no parts is the empty string. */
    record Sequence(List<GrammarExpr> parts) implements GrammarExpr {
        public Sequence {
            parts = List.copyOf(parts);
        }
    }

    /** A string literal. */
    record Literal(String text) implements GrammarExpr {
    }

    /** One character of a class. */
    record CharClass(CodePointSet chars) implements GrammarExpr {
    }

    /**
     * A reference to a rule.
     *
     * @param line   where the reference stands (1-based), for messages
     * @param column the column (1-based)
     */
    record Reference(String rule, int line, int column) implements GrammarExpr {
    }

    /** {@code body} between {@code min} and {@code max} times; {@code max} is -1 for no bound. */
    record Repeat(GrammarExpr body, int min, int max) implements GrammarExpr {
    }
}
