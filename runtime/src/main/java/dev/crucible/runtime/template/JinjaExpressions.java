package dev.crucible.runtime.template;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rewrites the inside of one {@code {{ … }}} or {@code {% … %}} where Jinjava's grammar differs from jinja2's, so both
 * mean the same: {@code not x is defined} and {@code not x == y} (and {@code in}, {@code <}, …) bind as
 * {@code not (…)}; a stepped slice {@code x[::-1]} becomes the {@code crucible_slice} filter; a named argument holding
 * an operator ({@code namespace(n=messages|length - 1)}) is parenthesised; a filtered loop
 * {@code for x in xs if c} loops over {@link JinjaFilters#WHERE}; a <code>}}</code> closing nested dicts is split,
 * since Jinjava would end the expression there. String literals are masked first, so text inside quotes is never
 * rewritten, and each literal is re-escaped by {@link StringLiterals}.
 *
 * <p>The code is a tenant's when a request brings the template: every pattern reads it through a {@link BudgetedText},
 * so a rewrite that backtracks long is stopped by the compile's {@link Budget}; literals are masked by a scan, and
 * stepped slices are rewritten in one pass, each searching for its operand only after the previous one. Stateless.
 */
final class JinjaExpressions {

    private static final Pattern MASKED = Pattern.compile("\u0001(\\d+)\u0002");
    private static final String IDENT = "[A-Za-z_][A-Za-z0-9_]*";
    private static final String PRIMARY = "(?:" + IDENT + "|\u0001\\d+\u0002)"
            + "(?:\\s*\\.\\s*" + IDENT + "|\\[[^\\[\\]]*\\]|\\([^()]*\\))*";
    private static final String OPERAND = PRIMARY + "(?:\\s*\\|\\s*" + IDENT + "(?:\\([^()]*\\))?)*";
    private static final String NUMBER = "-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?";
    private static final Pattern NOT_IS = Pattern.compile(
            "\\bnot\\s+(" + OPERAND + "\\s+is\\s+(?:not\\s+)?" + IDENT + ")");
    private static final Pattern NOT_COMPARE = Pattern.compile("\\bnot\\s+(" + OPERAND
            + "\\s*(?:==|!=|<=|>=|<|>|\\bnot\\s+in\\b|\\bin\\b)\\s*(?:" + OPERAND + "|" + NUMBER + "))");
    private static final Pattern STEPPED_SLICE = Pattern.compile(
            "\\[\\s*(" + NUMBER + ")?\\s*:\\s*(" + NUMBER + ")?\\s*:\\s*(" + NUMBER + ")\\s*\\]");
    private static final Pattern FILTERED_LOOP = Pattern.compile("(\\s*-?\\s*for\\s+)(" + IDENT + "(?:\\s*,\\s*" + IDENT
            + ")*)(\\s+in\\s+)(.+?)\\s+if\\s+(.+?)(\\s*-?\\s*)", Pattern.DOTALL);
    private static final Pattern OPERAND_ONLY = Pattern.compile(OPERAND);
    private static final Pattern ENDING_PRIMARY = Pattern.compile("(" + PRIMARY + ")$");
    private static final Pattern NAMED = Pattern.compile("\\s*" + IDENT + "\\s*=(?!=)");
    private static final Pattern SIMPLE_VALUE = Pattern.compile("\\s*(?:" + PRIMARY + "|" + NUMBER + ")\\s*");

    private JinjaExpressions() {
    }

    static String rewrite(String code) {
        return rewrite(code, Budget.NONE);
    }

    static String rewrite(String code, Budget budget) {
        List<String> strings = new ArrayList<>();
        String masked = mask(code, strings, budget);
        // Jinjava ends the expression at the first "}}", even one closing nested dicts
        String s = steppedSlices(masked.replace("}}", "} }").replace("}}", "} }"), budget);
        s = NOT_IS.matcher(new BudgetedText(s, budget)).replaceAll("not ($1)");
        s = NOT_COMPARE.matcher(new BudgetedText(s, budget)).replaceAll("not ($1)");
        s = namedArguments(s, budget);
        Matcher loop = FILTERED_LOOP.matcher(new BudgetedText(s, budget));
        if (loop.matches()) {
            // parenthesised only when needed: Jinjava misreads some parenthesised iterables such as ({…}.items())
            String items = OPERAND_ONLY.matcher(new BudgetedText(loop.group(4), budget)).matches() ? loop.group(4)
                    : "(" + loop.group(4) + ")";
            s = loop.group(1) + loop.group(2) + loop.group(3) + items + "|crucible_where("
                    + literal(loop.group(2)) + ", " + literal(unmask(loop.group(5), strings)) + ")" + loop.group(6);
        }
        return unmask(s, strings);
    }

    /**
     * The code with each string literal ({@code '…'} or {@code "…"}, backslash escapes inside) replaced by a numbered
     * mask, the literals kept in {@code strings}: the literals a regex {@code '(?:[^'\\]|\\.)*'} finds scanning
     * left to right, found by a scan, which neither recurses nor backtracks on a long literal.
     */
    private static String mask(String code, List<String> strings, Budget budget) {
        StringBuilder masked = new StringBuilder(code.length());
        int i = 0;
        while (i < code.length()) {
            char quote = code.charAt(i);
            int end = quote == '\'' || quote == '"' ? literalEnd(code, i, budget) : -1;
            if (end < 0) {
                masked.append(quote);
                i++;
                continue;
            }
            masked.append('\u0001').append(strings.size()).append('\u0002');
            strings.add(code.substring(i, end));
            i = end;
        }
        return masked.toString();
    }

    /** Just past the quote closing the literal opened at {@code open}, or -1 when none closes it. */
    private static int literalEnd(String code, int open, Budget budget) {
        char quote = code.charAt(open);
        for (int i = open + 1; i < code.length(); i++) {
            if ((i & 1023) == 0) {
                budget.tick();
            }
            char c = code.charAt(i);
            if (c == quote) {
                return i + 1;
            }
            if (c == '\\') {
                if (i + 1 >= code.length() || code.charAt(i + 1) == '\n' || code.charAt(i + 1) == '\r'
                        || code.charAt(i + 1) == '\u0085' || code.charAt(i + 1) == '\u2028'
                        || code.charAt(i + 1) == '\u2029') {
                    return -1; // a regex's "." matches no line terminator after the backslash
                }
                i++;
            }
        }
        return -1;
    }

    private static String unmask(String s, List<String> strings) {
        return MASKED.matcher(s).replaceAll(m -> Matcher.quoteReplacement(
                StringLiterals.toJinjava(strings.get(Integer.parseInt(m.group(1))))));
    }

    /** A Jinjava string literal holding {@code text}. */
    private static String literal(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    /**
     * {@code x[a:b:c]} to {@code (x|crucible_slice(a, b, c))}, x being the operand just before the brackets, in one pass:
     * each slice's operand is looked for after the previous slice (an operand cannot hold a rewritten slice, whose
     * nested parentheses no primary matches, unless a subscript holds it: {@code x[a[::-1]][::2]}, which
     * {@link #slicesOneAtATime} rewrites). Where a slice has no operand the code is left as it was.
     */
    private static String steppedSlices(String s, Budget budget) {
        BudgetedText text = new BudgetedText(s, budget);
        Matcher m = STEPPED_SLICE.matcher(text);
        Matcher operand = ENDING_PRIMARY.matcher(text);
        StringBuilder out = new StringBuilder();
        int done = 0;
        while (m.find()) {
            operand.region(done, m.start());
            if (!operand.find()) {
                return slicesOneAtATime(s, budget);
            }
            String args = arg(m.group(1)) + ", " + arg(m.group(2)) + ", " + arg(m.group(3));
            out.append(s, done, operand.start()).append('(').append(operand.group(1)).append("|crucible_slice(")
                    .append(args).append("))");
            done = m.end();
        }
        return out.append(s, done, s.length()).toString();
    }

    /** The stepped slices rewritten one at a time, each operand searched for in all the code before it. */
    private static String slicesOneAtATime(String s, Budget budget) {
        Matcher m = STEPPED_SLICE.matcher(new BudgetedText(s, budget));
        while (m.find()) {
            Matcher operand = ENDING_PRIMARY.matcher(new BudgetedText(s.substring(0, m.start()), budget));
            if (!operand.find()) {
                return s;
            }
            String args = arg(m.group(1)) + ", " + arg(m.group(2)) + ", " + arg(m.group(3));
            s = s.substring(0, operand.start()) + "(" + operand.group(1) + "|crucible_slice(" + args + "))"
                    + s.substring(m.end());
            m = STEPPED_SLICE.matcher(new BudgetedText(s, budget));
        }
        return s;
    }

    private static String arg(String number) {
        return number == null ? "none" : number;
    }

    /** Wraps in parentheses each named argument's value that is more than an operand or a number. */
    private static String namedArguments(String s, Budget budget) {
        BudgetedText text = new BudgetedText(s, budget);
        StringBuilder out = new StringBuilder();
        List<Character> open = new ArrayList<>();
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '(' || c == '[' || c == '{') {
                open.add(c);
            } else if ((c == ')' || c == ']' || c == '}') && !open.isEmpty()) {
                open.removeLast();
            }
            out.append(c);
            i++;
            boolean argumentStart = (c == '(' || c == ',') && !open.isEmpty() && open.getLast() == '(';
            Matcher name = NAMED.matcher(text).region(i, s.length());
            if (argumentStart && name.lookingAt()) {
                out.append(s, i, name.end());
                int end = valueEnd(s, name.end());
                String value = s.substring(name.end(), end);
                out.append(SIMPLE_VALUE.matcher(new BudgetedText(value, budget)).matches() ? value : "(" + value + ")");
                i = end;
            }
        }
        return out.toString();
    }

    /** Where a named argument's value ends: at the first {@code ,} or {@code )} outside brackets. */
    private static int valueEnd(String s, int from) {
        int depth = 0;
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(' || c == '[' || c == '{') {
                depth++;
            } else if ((c == ')' || c == ']' || c == '}') && depth-- == 0) {
                return i;
            } else if (c == ',' && depth == 0) {
                return i;
            }
        }
        return s.length();
    }
}
