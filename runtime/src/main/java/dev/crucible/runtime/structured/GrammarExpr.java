package dev.crucible.runtime.structured;

import java.util.List;

/**
 * One expression of a parsed grammar rule (the xgrammar dialect of GBNF). Immutable.
 */
sealed interface GrammarExpr {

    /** Whether the expression names no rule, so it is a regular language on its own. */
    boolean regular();

    /** One of several alternatives. */
    record Choice(List<GrammarExpr> options) implements GrammarExpr {
        public Choice {
            options = List.copyOf(options);
        }

        @Override
        public boolean regular() {
            return options.stream().allMatch(GrammarExpr::regular);
        }
    }

    /** The parts one after the other; no parts is the empty string. */
    record Sequence(List<GrammarExpr> parts) implements GrammarExpr {
        public Sequence {
            parts = List.copyOf(parts);
        }

        @Override
        public boolean regular() {
            return parts.stream().allMatch(GrammarExpr::regular);
        }
    }

    /** A string literal. */
    record Literal(String text) implements GrammarExpr {
        @Override
        public boolean regular() {
            return true;
        }
    }

    /** One character of a class. */
    record CharClass(CodePointSet chars) implements GrammarExpr {
        @Override
        public boolean regular() {
            return true;
        }
    }

    /**
     * A reference to a rule.
     *
     * @param line   where the reference stands (1-based), for messages
     * @param column the column (1-based)
     */
    record Reference(String rule, int line, int column) implements GrammarExpr {
        @Override
        public boolean regular() {
            return false;
        }
    }

    /** {@code body} between {@code min} and {@code max} times; {@code max} is -1 for no bound. */
    record Repeat(GrammarExpr body, int min, int max) implements GrammarExpr {
        @Override
        public boolean regular() {
            return body.regular();
        }
    }
}
