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
 * rewritten, and each literal is re-escaped by {@link StringLiterals}. Stateless.
 */
final class JinjaExpressions {

    private static final Pattern STRING = Pattern.compile("'(?:[^'\\\\]|\\\\.)*'|\"(?:[^\"\\\\]|\\\\.)*\"");
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
        List<String> strings = new ArrayList<>();
        Matcher literal = STRING.matcher(code);
        StringBuilder masked = new StringBuilder();
        while (literal.find()) {
            literal.appendReplacement(masked, "\u0001" + strings.size() + "\u0002");
            strings.add(literal.group());
        }
        literal.appendTail(masked);
        // Jinjava ends the expression at the first "}}", even one closing nested dicts
        String s = steppedSlices(masked.toString().replace("}}", "} }").replace("}}", "} }"));
        s = NOT_IS.matcher(s).replaceAll("not ($1)");
        s = NOT_COMPARE.matcher(s).replaceAll("not ($1)");
        s = namedArguments(s);
        Matcher loop = FILTERED_LOOP.matcher(s);
        if (loop.matches()) {
            // parenthesised only when needed: Jinjava misreads some parenthesised iterables such as ({…}.items())
            String items = OPERAND_ONLY.matcher(loop.group(4)).matches() ? loop.group(4) : "(" + loop.group(4) + ")";
            s = loop.group(1) + loop.group(2) + loop.group(3) + items + "|crucible_where("
                    + literal(loop.group(2)) + ", " + literal(unmask(loop.group(5), strings)) + ")" + loop.group(6);
        }
        return unmask(s, strings);
    }

    private static String unmask(String s, List<String> strings) {
        return MASKED.matcher(s).replaceAll(m -> Matcher.quoteReplacement(
                StringLiterals.toJinjava(strings.get(Integer.parseInt(m.group(1))))));
    }

    /** A Jinjava string literal holding {@code text}. */
    private static String literal(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    /** {@code x[a:b:c]} to {@code (x|crucible_slice(a, b, c))}, x being the operand just before the brackets. */
    private static String steppedSlices(String s) {
        Matcher m = STEPPED_SLICE.matcher(s);
        while (m.find()) {
            Matcher operand = ENDING_PRIMARY.matcher(s.substring(0, m.start()));
            if (!operand.find()) {
                return s;
            }
            String args = arg(m.group(1)) + ", " + arg(m.group(2)) + ", " + arg(m.group(3));
            s = s.substring(0, operand.start()) + "(" + operand.group(1) + "|crucible_slice(" + args + "))"
                    + s.substring(m.end());
            m = STEPPED_SLICE.matcher(s);
        }
        return s;
    }

    private static String arg(String number) {
        return number == null ? "none" : number;
    }

    /** Wraps in parentheses each named argument's value that is more than an operand or a number. */
    private static String namedArguments(String s) {
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
            Matcher name = NAMED.matcher(s).region(i, s.length());
            if (argumentStart && name.lookingAt()) {
                out.append(s, i, name.end());
                int end = valueEnd(s, name.end());
                String value = s.substring(name.end(), end);
                out.append(SIMPLE_VALUE.matcher(value).matches() ? value : "(" + value + ")");
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
