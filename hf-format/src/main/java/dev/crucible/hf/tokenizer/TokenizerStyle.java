package dev.crucible.hf.tokenizer;

import java.text.Normalizer;
import java.util.regex.Pattern;

/**
 * The pre-processing of a tokenizer family: the normalizer, the regex that splits text into pieces before BPE, and
 * whether a piece already in the vocabulary skips the merges ({@code ignore_merges}).
 */
public enum TokenizerStyle {
    /** Qwen2/Qwen3: NFC, digits split one by one, merges always applied. */
    QWEN2("(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*"
            + "|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+", true, false),
    /** Llama 3: no normalizer, digits in groups of up to three, whole-vocabulary pieces bypass merges. */
    LLAMA3("(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*"
            + "|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+", false, true);

    private final String regex;
    private final Pattern pattern;
    private final boolean nfc;
    private final boolean ignoreMerges;

    TokenizerStyle(String regex, boolean nfc, boolean ignoreMerges) {
        this.regex = regex;
        this.pattern = PreTokenizerRegex.compile(regex);
        this.nfc = nfc;
        this.ignoreMerges = ignoreMerges;
    }

    /** The split regex as written in tokenizer.json (Oniguruma syntax, which Java reads the same way). */
    public String regex() {
        return regex;
    }

    /** The split regex compiled for Java. */
    public Pattern pattern() {
        return pattern;
    }

    /** Whether text is NFC-normalised before splitting. */
    public boolean nfc() {
        return nfc;
    }

    /** Whether a piece found whole in the vocabulary is emitted without merging. */
    public boolean ignoreMerges() {
        return ignoreMerges;
    }

    /** The text as the normalizer leaves it. */
    public String normalize(String text) {
        return nfc ? Normalizer.normalize(text, Normalizer.Form.NFC) : text;
    }
}
