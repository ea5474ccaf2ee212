package dev.crucible.testsupport.constraint;

/**
 * Arithmetic expressions (numbers, {@code + -}, the term operators, parentheses) as a left-recursive GBNF grammar,
 * with a recursive-descent recogniser of the same language written independently of any grammar code, so a test can
 * check a grammar engine's answers against it.
 *
 * @param termOperators the operators that bind tighter than {@code + -}: {@code *}, or {@code *} and {@code /}
 * @param maxDigits     the longest number; {@link Integer#MAX_VALUE} for unbounded
 */
public record Arithmetic(String termOperators, int maxDigits) {

    /** {@code * /} and numbers of any length. */
    public static final Arithmetic FULL = new Arithmetic("*/", Integer.MAX_VALUE);

    /** The grammar, left-recursive in {@code expr} and {@code term} on purpose. */
    public String grammar() {
        StringBuilder ops = new StringBuilder();
        for (char op : termOperators.toCharArray()) {
            ops.append(ops.isEmpty() ? "" : " | ").append('"').append(op).append('"');
        }
        String digits = maxDigits == Integer.MAX_VALUE ? "[0-9]+" : "[0-9]{1," + maxDigits + "}";
        return "root ::= expr\n"
                + "expr ::= expr (\"+\" | \"-\") term | term\n"
                + "term ::= term (" + ops + ") factor | factor\n"
                + "factor ::= " + digits + " | \"(\" expr \")\"\n";
    }

    /** Whether {@code text} is a whole expression of the language. */
    public boolean accepts(String text) {
        Recogniser r = new Recogniser(text);
        return r.expr() && r.pos == text.length();
    }

    /** A prefix closed off: a number where one is due, then a parenthesis for each left open. */
    public static String completion(String prefix) {
        String text = prefix.isEmpty() || "+-*/(".indexOf(prefix.charAt(prefix.length() - 1)) >= 0
                ? prefix + "1" : prefix;
        long open = text.chars().filter(c -> c == '(').count() - text.chars().filter(c -> c == ')').count();
        return text + ")".repeat((int) Math.max(0, open));
    }

    private final class Recogniser {
        private final String s;
        private int pos;

        private Recogniser(String s) {
            this.s = s;
        }

        private boolean expr() {
            return chain("+-", this::term);
        }

        private boolean term() {
            return chain(termOperators, this::factor);
        }

        private boolean chain(String operators, java.util.function.BooleanSupplier operand) {
            if (!operand.getAsBoolean()) {
                return false;
            }
            while (pos < s.length() && operators.indexOf(s.charAt(pos)) >= 0) {
                pos++;
                if (!operand.getAsBoolean()) {
                    return false;
                }
            }
            return true;
        }

        private boolean factor() {
            if (pos < s.length() && s.charAt(pos) == '(') {
                pos++;
                if (!expr() || pos >= s.length() || s.charAt(pos) != ')') {
                    return false;
                }
                pos++;
                return true;
            }
            int start = pos;
            while (pos < s.length() && pos - start < maxDigits && Character.isDigit(s.charAt(pos))) {
                pos++;
            }
            return pos > start;
        }
    }
}
