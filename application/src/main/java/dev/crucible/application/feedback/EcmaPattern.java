package dev.crucible.application.feedback;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.crucible.kernel.refusal.Excerpt;

/**
 * A JSON Schema {@code pattern}: an ECMA-262 regular expression (with the {@code u} flag, as JSON Schema asks),
 * searched unanchored, run by RE2/J in time linear in the text. ECMA's meanings are kept where RE2/J's differ:
 * {@code .} excludes every ECMA line terminator, {@code \s} is ECMA's white space, {@code \}{@code uXXXX} and
 * {@code \}{@code u{...}} are code points. What a linear-time engine cannot run (backreferences, lookaround) is
 * refused, as is a pattern whose size after expanding its repeats ({@code (a{100}){100}} is 10,000) is past the
 * bound: RE2/J's work per character of text grows with that size. Immutable and thread-safe.
 */
final class EcmaPattern {

    /** ECMA-262's WhiteSpace and LineTerminator, as the inside of an RE2/J character class. */
    static final String WHITE_SPACE = "\\t\\n\\x0B\\f\\r\\x{FEFF}\\p{Z}";

    private final Pattern compiled;
    private final long size;

    private EcmaPattern(Pattern compiled, long size) {
        this.compiled = compiled;
        this.size = size;
    }

    /**
     * {@code source} compiled, or why not.
     *
     * @param maxSize the largest size after expanding repeats ({@link SpecLimits#maxPatternSize()})
     * @throws Unsupported with a message that quotes {@code source} only through {@link Excerpt}
     */
    static EcmaPattern compile(String source, long maxSize) {
        EcmaTranslation.Result translation = EcmaTranslation.translate(source, maxSize);
        try {
            return new EcmaPattern(Pattern.compile(translation.re2()), translation.size());
        } catch (PatternSyntaxException e) {
            throw new Unsupported("pattern " + Excerpt.of(source) + " is not a regular expression this server can"
                    + " run: " + e.getDescription());
        }
    }

    /** Whether the pattern matches somewhere in {@code text} (ECMA's {@code RegExp.prototype.test}). */
    boolean find(String text) {
        return compiled.matcher(text).find();
    }

    /** The size after expanding repeats: RE2/J's work per character of text is at most proportional to it. */
    long size() {
        return size;
    }

    /** A pattern this server refuses; the message says why, quoting the pattern only as an excerpt. */
    static final class Unsupported extends RuntimeException {
        Unsupported(String message) {
            super(message, null, false, false);
        }
    }
}
