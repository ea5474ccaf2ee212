package dev.crucible.runtime.structured;

import dev.crucible.kernel.refusal.Excerpt;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.util.automaton.Automata;
import org.apache.lucene.util.automaton.Automaton;
import org.apache.lucene.util.automaton.Operations;

/**
 * Parses a regular expression in Python's {@code re} syntax into an automaton over code points, matched as
 * {@code re.fullmatch} matches. Supported: literals and escapes ({@code \n \t \r \f \v \a \0 \xhh \\uhhhh
 * \Uhhhhhhhh}, escaped punctuation), {@code .} (any character but a newline), classes {@code [...]} and
 * {@code [^...]} with ranges, {@code \d \w \s} and their negations (ASCII meanings, as xgrammar), groups
 * {@code (...)}, {@code (?:...)}, {@code (?P<name>...)}, {@code (?<name>...)}, alternation, the quantifiers
 * {@code * + ? {n} {n,} {,m} {n,m}} and their lazy forms (the same language), and {@code ^}/{@code $} (or
 * {@code \A}/{@code \Z}) at the very start and end. Refused, since a DFA cannot express them or they change the
 * matched language in ways this parser does not model: backreferences, lookaround, word boundaries, possessive
 * quantifiers, inline flags and conditionals. Not thread-safe; one parser per pattern.
 *
 * <p>Over 300 lines: one recursive-descent parser, whose productions read best side by side.
 */
final class RegexParser {

    /** The largest repeat bound accepted; larger counts make automata too big to serve. */
    static final int MAX_REPEAT = 1000;
    /** Bounds the nesting of groups, so parsing never runs out of stack. */
    static final int MAX_NESTING = 100;

    private final String pattern;
    private final int[] cps;
    private final StateBudget budget;
    private int pos;
    private int depth;

    private RegexParser(String pattern, StateBudget budget) {
        this.pattern = pattern;
        this.cps = pattern.codePoints().toArray();
        this.budget = budget;
    }

    /** The automaton of one of the server's own patterns, which are small: no state bound. */
    static Automaton parse(String pattern) {
        return parse(pattern, StateBudget.UNBOUNDED);
    }

    /**
     * The automaton of {@code pattern}, refused once it would expand past {@code budget}: each repeat is checked
     * by the states its copies will take before it copies, each sequence and alternation as its parts add up.
     *
     * @throws InvalidConstraintException for a pattern that is invalid, uses an unsupported feature or is too large
     */
    static Automaton parse(String pattern, StateBudget budget) {
        RegexParser parser = new RegexParser(pattern, budget);
        if (parser.peekIs('^')) {
            parser.pos++;
        } else if (parser.startsWith("\\A")) {
            parser.pos += 2;
        }
        Automaton result = parser.alternation();
        if (parser.pos < parser.cps.length) {
            throw parser.error(parser.peek() == ')' ? "unbalanced parenthesis" : "unexpected character");
        }
        return result;
    }

    private Automaton alternation() {
        List<Automaton> branches = new ArrayList<>();
        branches.add(concatenation());
        long states = StateBudget.size(branches.getFirst());
        while (peekIs('|')) {
            pos++;
            branches.add(concatenation());
            states += StateBudget.size(branches.getLast());
            budget.reserve(states);
        }
        return branches.size() == 1 ? branches.getFirst() : Operations.union(branches);
    }

    private Automaton concatenation() {
        List<Automaton> parts = new ArrayList<>();
        long states = 0;
        long open = 0; // accepting states of earlier parts that the next part's first transitions join
        while (pos < cps.length && !peekIs('|') && !peekIs(')')) {
            if (atEnd()) {
                break;
            }
            Automaton part = quantified(atom());
            parts.add(part);
            states = StateBudget.plus(states, StateBudget.plus(StateBudget.size(part), StateBudget.chainedJoins(open, part)));
            open = StateBudget.openAfter(open, part);
            budget.reserve(states);
        }
        return parts.isEmpty() ? Automata.makeEmptyString() : Operations.concatenate(parts);
    }

    /** A trailing {@code $} or {@code \Z} that ends the whole pattern (or the pattern's last branch). */
    private boolean atEnd() {
        int length = peekIs('$') ? 1 : startsWith("\\Z") ? 2 : 0;
        if (length == 0) {
            return false;
        }
        int after = pos + length;
        if (after == cps.length || cps[after] == '|' || cps[after] == ')') {
            pos = after;
            return true;
        }
        throw error("anchors are supported only at the start and end of the pattern");
    }

    private Automaton quantified(Automaton atom) {
        Automaton result = atom;
        boolean quantified = false;
        while (pos < cps.length) {
            int c = peek();
            int min;
            int max;
            if (c == '*' || c == '+' || c == '?') {
                pos++;
                min = c == '+' ? 1 : 0;
                max = c == '?' ? 1 : -1;
            } else if (c == '{' && braces() != null) {
                int[] bounds = braces();
                pos = bounds[2];
                min = bounds[0];
                max = bounds[1];
            } else {
                break;
            }
            if (quantified) {
                throw error("multiple repeat");
            }
            quantified = true;
            if (peekIs('?')) {
                pos++; // lazy: the same language
            } else if (peekIs('+')) {
                throw error("possessive quantifiers are not supported");
            }
            result = repeat(result, min, max);
        }
        return result;
    }

    private Automaton repeat(Automaton atom, int min, int max) {
        if (max >= 0 && max < min) {
            throw error("min repeat greater than max repeat");
        }
        if (min > MAX_REPEAT || max > MAX_REPEAT) {
            throw error("repeat counts above " + MAX_REPEAT + " are not supported");
        }
        // repeat(a, min) copies a min + 1 times, repeat(a, min, max) max times: refused before a copy is made
        budget.reserveRepeat(atom, min, max);
        if (max < 0) {
            return min == 0 ? Operations.repeat(atom) : Operations.repeat(atom, min);
        }
        return Operations.repeat(atom, min, max);
    }

    /**
     * {@code {n}}, {@code {n,}}, {@code {,m}} or {@code {n,m}} at pos as {min, max or -1, end}; else null (a literal
     * brace, as in Python).
     */
    private int[] braces() {
        int i = pos + 1;
        int start = i;
        while (i < cps.length && Character.isDigit(cps[i])) {
            i++;
        }
        String low = new String(cps, start, i - start);
        if (i < cps.length && cps[i] == '}') {
            return low.isEmpty() ? null : new int[] {count(low), count(low), i + 1};
        }
        if (i >= cps.length || cps[i] != ',') {
            return null;
        }
        int highStart = ++i;
        while (i < cps.length && Character.isDigit(cps[i])) {
            i++;
        }
        if (i >= cps.length || cps[i] != '}') {
            return null;
        }
        String high = new String(cps, highStart, i - highStart);
        return new int[] {low.isEmpty() ? 0 : count(low), high.isEmpty() ? -1 : count(high), i + 1};
    }

    private int count(String digits) {
        if (digits.length() > 6) {
            throw error("repeat counts above " + MAX_REPEAT + " are not supported");
        }
        return Integer.parseInt(digits);
    }

    private Automaton atom() {
        int c = next();
        return switch (c) {
            case '(' -> group();
            case '[' -> characterClass().automaton();
            case '.' -> CodePointSet.ANY.minus(CodePointSet.of('\n', '\n')).automaton();
            case '\\' -> escape(false).automaton();
            case '*', '+', '?' -> throw errorAt(pos - 1, "nothing to repeat");
            case '{' -> braceAtom();
            case '^', '$' -> throw errorAt(pos - 1, "anchors are supported only at the start and end of the pattern");
            default -> Automata.makeChar(c);
        };
    }

    private Automaton braceAtom() {
        pos--;
        if (braces() != null) {
            throw error("nothing to repeat");
        }
        pos++;
        return Automata.makeChar('{');
    }

    private Automaton group() {
        if (peekIs('?')) {
            pos++;
            int kind = pos < cps.length ? next() : -1;
            if (kind == 'P' && peekIs('<') || kind == '<' && !peekIs('=') && !peekIs('!')) {
                if (kind == 'P') {
                    pos++;
                }
                while (pos < cps.length && cps[pos] != '>') {
                    pos++;
                }
                if (pos >= cps.length) {
                    throw error("missing >, unterminated name");
                }
                pos++;
            } else if (kind != ':') {
                throw errorAt(pos - 1, switch (kind) {
                    case '=', '!', '<' -> "lookaround assertions are not supported";
                    case 'P' -> "named backreferences are not supported";
                    case '(' -> "conditional patterns are not supported";
                    default -> "inline flags and other group extensions are not supported";
                });
            }
        }
        if (++depth > MAX_NESTING) {
            throw error("groups nested more than " + MAX_NESTING + " deep are not supported");
        }
        Automaton inner = alternation();
        if (!peekIs(')')) {
            throw error("missing ), unterminated subpattern");
        }
        pos++;
        depth--;
        return inner;
    }

    private CodePointSet characterClass() {
        int start = pos - 1;
        boolean negated = peekIs('^');
        if (negated) {
            pos++;
        }
        CodePointSet set = CodePointSet.none();
        boolean first = true;
        while (true) {
            if (pos >= cps.length) {
                throw errorAt(start, "unterminated character set");
            }
            if (peekIs(']') && !first) {
                pos++;
                break;
            }
            first = false;
            CodePointSet low = classMember();
            if (peekIs('-') && pos + 1 < cps.length && cps[pos + 1] != ']') {
                pos++;
                CodePointSet high = classMember();
                int lo = single(low);
                int hi = single(high);
                if (hi < lo) {
                    throw errorAt(pos - 1, "bad character range");
                }
                set = set.union(CodePointSet.of(lo, hi));
            } else {
                set = set.union(low);
            }
        }
        return negated ? set.complement() : set;
    }

    private CodePointSet classMember() {
        int c = next();
        return c == '\\' ? escape(true) : CodePointSet.of(c, c);
    }

    private int single(CodePointSet set) {
        if (set.ranges().size() != 1 || set.ranges().getFirst()[0] != set.ranges().getFirst()[1]) {
            throw errorAt(pos - 1, "bad character range");
        }
        return set.ranges().getFirst()[0];
    }

    /** The escape after a backslash; {@code inClass} makes {@code \b} a backspace. */
    private CodePointSet escape(boolean inClass) {
        if (pos >= cps.length) {
            throw errorAt(pos - 1, "bad escape (end of pattern)");
        }
        int c = next();
        return switch (c) {
            case 'd' -> CodePointSet.DIGIT;
            case 'D' -> CodePointSet.DIGIT.complement();
            case 'w' -> CodePointSet.WORD;
            case 'W' -> CodePointSet.WORD.complement();
            case 's' -> CodePointSet.SPACE;
            case 'S' -> CodePointSet.SPACE.complement();
            case 'n' -> point('\n');
            case 't' -> point('\t');
            case 'r' -> point('\r');
            case 'f' -> point('\f');
            case 'v' -> point(0x0B);
            case 'a' -> point(0x07);
            case '0' -> point(0);
            case 'x' -> point(hex(2));
            case 'u' -> point(hex(4));
            case 'U' -> point(hex(8));
            case 'b' -> {
                if (inClass) {
                    yield point('\b');
                }
                throw errorAt(pos - 2, "word boundaries are not supported");
            }
            case 'B', 'A', 'Z' -> throw errorAt(pos - 2, "\\" + (char) c + " is supported only at the pattern's ends");
            default -> {
                if (Character.isDigit(c)) {
                    throw errorAt(pos - 2, "backreferences are not supported");
                }
                if (Character.isLetter(c) && c < 0x80) {
                    throw errorAt(pos - 2, "bad escape \\" + (char) c);
                }
                yield point(c);
            }
        };
    }

    private static CodePointSet point(int c) {
        return CodePointSet.of(c, c);
    }

    private int hex(int digits) {
        if (pos + digits > cps.length) {
            throw errorAt(pos - 2, "incomplete escape");
        }
        String text = new String(cps, pos, digits);
        try {
            int value = Integer.parseInt(text, 16);
            if (value > CodePointSet.MAX || value < 0) {
                throw errorAt(pos - 2, "bad escape, code point out of range");
            }
            pos += digits;
            return value;
        } catch (NumberFormatException e) {
            throw errorAt(pos - 2, "incomplete escape");
        }
    }

    private int peek() {
        return cps[pos];
    }

    private boolean peekIs(int c) {
        return SourceText.at(cps, pos, c);
    }

    private boolean startsWith(String s) {
        return SourceText.startsWith(cps, pos, s);
    }

    private int next() {
        if (pos >= cps.length) {
            throw error("unexpected end of pattern");
        }
        return cps[pos++];
    }

    private InvalidConstraintException error(String what) {
        return errorAt(pos, what);
    }

    private InvalidConstraintException errorAt(int at, String what) {
        return new InvalidConstraintException(what + " at position " + at + " in " + Excerpt.of(pattern));
    }
}
