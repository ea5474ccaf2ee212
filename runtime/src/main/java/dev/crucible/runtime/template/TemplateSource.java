package dev.crucible.runtime.template;

import dev.crucible.kernel.refusal.Refusal;

/**
 * Prepares a template's source for Jinjava so it means what it means to jinja2 in transformers' environment. The
 * lexer's work is done here, as jinja2 does it: newlines normalised to {@code \n}, one trailing newline dropped
 * ({@code keep_trailing_newline=False}), {@code lstrip_blocks} (spaces and tabs before a <code>{%</code> or
 * <code>{#</code> that begins its line are dropped, unless it is <code>{%+</code>) and {@code trim_blocks} (the
 * newline right after <code>%}</code> or <code>#}</code> is dropped, unless it is <code>+%}</code>). Jinjava's own
 * versions differ (its lstrip also strips after text on the same line), so they are off. The inside of each
 * {@code {{ … }}} and {@code {% … %}} is rewritten by {@link JinjaExpressions}; text, comments and
 * {@code {% raw %}} blocks are left alone. An expression nesting brackets deeper than {@link #MAX_NESTING} is
 * refused. Stateless.
 */
final class TemplateSource {

    /**
     * The deepest brackets one expression may nest: Jinjava's expression parser recurses (and, past a few hundred
     * levels, takes seconds before it overflows the stack) where real templates nest a handful.
     */
    static final int MAX_NESTING = 100;

    private TemplateSource() {
    }

    static String prepare(String source) {
        return prepare(source, Budget.NONE);
    }

    /** As {@link #prepare(String)}, checking the compile's budget at every tag. */
    static String prepare(String source, Budget budget) {
        String s = source.replace("\r\n", "\n").replace('\r', '\n');
        if (s.endsWith("\n")) {
            s = s.substring(0, s.length() - 1);
        }
        StringBuilder out = new StringBuilder(s.length() + 64);
        int i = 0;
        while (i < s.length()) {
            int open = nextOpening(s, i);
            if (open < 0) {
                out.append(s, i, s.length());
                break;
            }
            out.append(s, i, open);
            budget.tick();
            char kind = s.charAt(open + 1);
            char sign = open + 2 < s.length() ? s.charAt(open + 2) : 0;
            if (kind != '{' && sign != '+' && sign != '-' && onlyIndentedBefore(s, open)) {
                int lineStart = s.lastIndexOf('\n', open - 1) + 1;
                out.setLength(out.length() - (open - lineStart)); // lstrip_blocks
            }
            int end = kind == '#' ? s.indexOf("#}", open + 2) : codeEnd(s, open + 2, kind == '{' ? '}' : '%');
            if (end < 0) {
                out.append(s, open, s.length());
                break;
            }
            int codeStart = sign == '+' && kind == '%' ? open + 3 : open + 2;
            boolean keepNewline = s.charAt(end - 1) == '+' && kind == '%';
            String code = s.substring(codeStart, keepNewline ? end - 1 : end);
            out.append(s, open, open + 2).append(kind == '#' ? code : JinjaExpressions.rewrite(code, budget))
                    .append(s, end, end + 2);
            i = end + 2;
            if (kind != '{' && !keepNewline && i < s.length() && s.charAt(i) == '\n') {
                i++; // trim_blocks
            }
            if (kind == '%' && code.replace("-", "").strip().equals("raw")) {
                int endRaw = s.indexOf("endraw", i);
                int rawEnd = endRaw < 0 ? s.length() : s.lastIndexOf('{', endRaw);
                out.append(s, i, rawEnd);
                i = rawEnd;
            }
        }
        return out.toString();
    }

    /** Whether only spaces and tabs stand between the start of the tag's line and the tag. */
    private static boolean onlyIndentedBefore(String s, int open) {
        for (int i = open - 1; i >= 0 && s.charAt(i) != '\n'; i--) {
            if (s.charAt(i) != ' ' && s.charAt(i) != '\t' && s.charAt(i) != '\f' && s.charAt(i) != '\u000b') {
                return false;
            }
        }
        return true;
    }

    private static int nextOpening(String s, int from) {
        for (int i = s.indexOf('{', from); i >= 0 && i + 1 < s.length(); i = s.indexOf('{', i + 1)) {
            char next = s.charAt(i + 1);
            if (next == '{' || next == '%' || next == '#') {
                return i;
            }
        }
        return -1;
    }

    /**
     * The index of the closing <code>}}</code> or <code>%}</code> of code starting at {@code from}: outside string
     * literals and, as jinja2's lexer balances brackets, outside any <code>( [ {</code> opened in the code
     * ({@code {{ {'a': {'b': 1}} }}}).
     */
    private static int codeEnd(String s, int from, char closer) {
        char quote = 0;
        int depth = 0;
        for (int i = from; i + 1 < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (depth == 0 && c == closer && s.charAt(i + 1) == '}') {
                return i;
            } else if (c == '(' || c == '[' || c == '{') {
                if (++depth > MAX_NESTING) {
                    throw new TemplateStopped(Refusal.invalid("chat_template", "chat template does not parse: it "
                            + "nests brackets more than " + MAX_NESTING + " deep in one expression, which this server "
                            + "does not compile"));
                }
            } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
                depth--;
            }
        }
        return -1;
    }
}
