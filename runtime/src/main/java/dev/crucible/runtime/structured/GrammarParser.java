package dev.crucible.runtime.structured;

import dev.crucible.kernel.refusal.Excerpt;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses a context-free grammar in the GBNF/EBNF dialect xgrammar reads: rules {@code name ::= expression}, string
 * literals in double (or single) quotes with escapes ({@code \n \t \r \\ \" \xhh \\uhhhh \Uhhhhhhhh}), character
 * classes {@code [a-z]} and {@code [^...]}, {@code .} (any character), grouping, alternation {@code |}, the
 * repetitions {@code * + ? {n} {n,} {n,m}} and {@code #} comments. A rule runs until the next {@code name ::=} or
 * the end, so rules may span lines. Errors name the line, the column and the rule being read. Not thread-safe; one
 * parser per grammar.
 *
 * <p>Over 300 lines: one recursive-descent parser, whose productions read best side by side (as {@link RegexParser}).
 */
final class GrammarParser {

    /** The largest repetition bound accepted, as for regexes. */
    static final int MAX_REPEAT = RegexParser.MAX_REPEAT;
    /** Bounds the nesting of groups and of stacked repetitions, so compiling never runs out of stack. */
    static final int MAX_NESTING = 100;

    private final int[] cps;
    private int pos;
    private String rule = "";
    private int depth;

    private GrammarParser(String source) {
        this.cps = source.codePoints().toArray();
    }

    /**
     * The rules of {@code source}, in order of definition.
     *
     * @throws InvalidConstraintException for a grammar that does not parse or defines a rule twice
     */
    static Map<String, GrammarExpr> parse(String source) {
        GrammarParser parser = new GrammarParser(source);
        Map<String, GrammarExpr> rules = new LinkedHashMap<>();
        parser.skipSpace();
        while (parser.pos < parser.cps.length) {
            int at = parser.pos;
            String name = parser.name();
            if (name.isEmpty()) {
                throw parser.error("expected a rule name");
            }
            parser.rule = name;
            parser.skipSpace();
            if (!parser.startsWith("::=")) {
                throw parser.error("expected '::=' after the rule name");
            }
            parser.pos += 3;
            GrammarExpr body = parser.choice();
            if (parser.pos < parser.cps.length && !parser.atRuleStart()) {
                throw parser.error(parser.peek() == ')' ? "unbalanced parenthesis" : "unexpected character "
                        + Excerpt.of(Character.toString(parser.peek())));
            }
            if (rules.putIfAbsent(name, body) != null) {
                parser.pos = at;
                throw parser.error("rule " + Excerpt.of(name) + " is defined more than once");
            }
        }
        return rules;
    }

    private GrammarExpr choice() {
        List<GrammarExpr> options = new ArrayList<>();
        options.add(sequence());
        while (peekIs('|')) {
            pos++;
            options.add(sequence());
        }
        return options.size() == 1 ? options.getFirst() : new GrammarExpr.Choice(options);
    }

    private GrammarExpr sequence() {
        List<GrammarExpr> parts = new ArrayList<>();
        while (true) {
            skipSpace();
            if (pos >= cps.length || peekIs('|') || peekIs(')') || atRuleStart()) {
                break;
            }
            parts.add(quantified(primary()));
        }
        return parts.size() == 1 ? parts.getFirst() : new GrammarExpr.Sequence(parts);
    }

    private GrammarExpr quantified(GrammarExpr atom) {
        GrammarExpr out = atom;
        int stacked = 0;
        while (pos < cps.length) {
            int c = peek();
            if ((c == '*' || c == '+' || c == '?' || c == '{') && ++stacked > MAX_NESTING) {
                throw error("more than " + MAX_NESTING + " repetitions stacked on one expression");
            }
            if (c == '*') {
                out = new GrammarExpr.Repeat(out, 0, -1);
            } else if (c == '+') {
                out = new GrammarExpr.Repeat(out, 1, -1);
            } else if (c == '?') {
                out = new GrammarExpr.Repeat(out, 0, 1);
            } else if (c == '{') {
                out = braces(out);
                continue;
            } else {
                return out;
            }
            pos++;
        }
        return out;
    }

    private GrammarExpr braces(GrammarExpr atom) {
        pos++;
        int min = number();
        int max = min;
        skipSpace();
        if (peekIs(',')) {
            pos++;
            skipSpace();
            max = peekIs('}') ? -1 : number();
        }
        skipSpace();
        if (!peekIs('}')) {
            throw error("expected '}' to close the repetition");
        }
        pos++;
        if (max >= 0 && max < min) {
            throw error("repetition {" + min + "," + max + "} has its maximum below its minimum");
        }
        return new GrammarExpr.Repeat(atom, min, max);
    }

    private int number() {
        skipSpace();
        int start = pos;
        while (pos < cps.length && cps[pos] >= '0' && cps[pos] <= '9') {
            pos++;
        }
        if (start == pos) {
            throw error("expected a number in the repetition");
        }
        if (pos - start > 6) {
            throw error("repetition count above " + MAX_REPEAT);
        }
        int n = Integer.parseInt(new String(cps, start, pos - start));
        if (n > MAX_REPEAT) {
            throw error("repetition count " + n + " above " + MAX_REPEAT);
        }
        return n;
    }

    private GrammarExpr primary() {
        int c = peek();
        if (c == '"' || c == '\'') {
            return literal(c);
        }
        if (c == '[') {
            return new GrammarExpr.CharClass(charClass());
        }
        if (c == '.') {
            pos++;
            return new GrammarExpr.CharClass(CodePointSet.ANY);
        }
        if (c == '(') {
            pos++;
            if (peekIs('=') || peekIs('!')) {
                throw error("lookahead assertions are not supported");
            }
            if (++depth > MAX_NESTING) {
                throw error("groups nested more than " + MAX_NESTING + " deep");
            }
            GrammarExpr inner = choice();
            if (!peekIs(')')) {
                throw error("expected ')'");
            }
            pos++;
            depth--;
            return inner;
        }
        int line = line(pos);
        int column = column(pos);
        String name = name();
        if (name.isEmpty()) {
            throw error("unexpected character " + Excerpt.of(Character.toString(c)));
        }
        return new GrammarExpr.Reference(name, line, column);
    }

    private GrammarExpr literal(int quote) {
        pos++;
        StringBuilder text = new StringBuilder();
        while (true) {
            if (pos >= cps.length || peekIs('\n')) {
                throw error("unterminated string literal");
            }
            int c = cps[pos++];
            if (c == quote) {
                return new GrammarExpr.Literal(text.toString());
            }
            text.appendCodePoint(c == '\\' ? escape() : c);
        }
    }

    private CodePointSet charClass() {
        pos++;
        boolean negated = peekIs('^');
        if (negated) {
            pos++;
        }
        CodePointSet set = CodePointSet.none();
        while (!peekIs(']')) {
            int lo = classChar();
            int hi = lo;
            if (peekIs('-') && pos + 1 < cps.length && cps[pos + 1] != ']') {
                pos++;
                hi = classChar();
                if (hi < lo) {
                    throw error("character range is out of order");
                }
            }
            set = set.union(CodePointSet.of(lo, hi));
        }
        pos++;
        return negated ? set.complement() : set;
    }

    private int classChar() {
        if (pos >= cps.length || peekIs('\n')) {
            throw error("unterminated character class");
        }
        int c = cps[pos++];
        return c == '\\' ? escape() : c;
    }

    private int escape() {
        if (pos >= cps.length) {
            throw error("unterminated escape");
        }
        int c = cps[pos++];
        return switch (c) {
            case 'n' -> '\n';
            case 't' -> '\t';
            case 'r' -> '\r';
            case 'f' -> '\f';
            case 'v' -> 0x0B;
            case '0' -> 0;
            case 'x' -> hex(2);
            case 'u' -> hex(4);
            case 'U' -> hex(8);
            case '\\', '"', '\'', '[', ']', '-', '^', '/', '.', '(', ')', '|', '*', '+', '?', '{', '}' -> c;
            default -> {
                pos--;
                throw error("unknown escape " + Excerpt.of("\\" + Character.toString(c)));
            }
        };
    }

    private int hex(int digits) {
        if (pos + digits > cps.length) {
            throw error("expected " + digits + " hex digits");
        }
        int value = 0;
        for (int i = 0; i < digits; i++) {
            int d = Character.digit(cps[pos], 16);
            if (d < 0) {
                throw error("expected " + digits + " hex digits");
            }
            value = value * 16 + d;
            pos++;
        }
        if (value > CodePointSet.MAX) {
            throw error("code point out of range");
        }
        return value;
    }

    private String name() {
        int start = pos;
        while (pos < cps.length && (Character.isLetterOrDigit(cps[pos]) && cps[pos] < 128 || cps[pos] == '_'
                || cps[pos] == '-' || cps[pos] == '.' && pos > start)) {
            pos++;
        }
        return new String(cps, start, pos - start);
    }

    /** Whether a rule definition ({@code name ::=}) starts here. */
    private boolean atRuleStart() {
        int save = pos;
        String name = name();
        skipSpace();
        boolean definition = !name.isEmpty() && startsWith("::=");
        pos = save;
        return definition;
    }

    private void skipSpace() {
        while (pos < cps.length) {
            int c = cps[pos];
            if (c == '#') {
                while (pos < cps.length && cps[pos] != '\n') {
                    pos++;
                }
            } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                pos++;
            } else {
                return;
            }
        }
    }

    private int peek() {
        return pos < cps.length ? cps[pos] : -1;
    }

    private boolean peekIs(int c) {
        return SourceText.at(cps, pos, c);
    }

    private boolean startsWith(String s) {
        return SourceText.startsWith(cps, pos, s);
    }

    private int line(int at) {
        int line = 1;
        for (int i = 0; i < at && i < cps.length; i++) {
            line += cps[i] == '\n' ? 1 : 0;
        }
        return line;
    }

    private int column(int at) {
        int column = 1;
        for (int i = at - 1; i >= 0 && i < cps.length && cps[i] != '\n'; i--) {
            column++;
        }
        return column;
    }

    private InvalidConstraintException error(String what) {
        String where = "line " + line(pos) + ", column " + column(pos);
        return new InvalidConstraintException(rule.isEmpty() ? what + " at " + where
                : what + " in rule " + Excerpt.of(rule) + " at " + where);
    }
}
