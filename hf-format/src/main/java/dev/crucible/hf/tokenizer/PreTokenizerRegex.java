package dev.crucible.hf.tokenizer;

import java.util.regex.Pattern;

/**
 * Compiles a tokenizer.json split regex (Oniguruma, as Hugging Face tokenizers runs it) for {@code java.util.regex}.
 * Oniguruma's {@code \s} is Unicode white space, so the Java pattern needs Unicode character classes.
 */
final class PreTokenizerRegex {

    private PreTokenizerRegex() {
    }

    static Pattern compile(String regex) {
        return Pattern.compile(regex, Pattern.UNICODE_CHARACTER_CLASS);
    }
}
