package dev.crucible.hf.tokenizer;

import java.util.List;
import java.util.Random;

/**
 * Seeded random text for comparing tokenizers: pieces drawn from many scripts and from the corners of the split
 * regexes (contractions in any case, digit runs, whitespace runs of every kind, punctuation runs, combining marks,
 * emoji with skin tones and joiners), with the tokenizer's added tokens, whole, broken or doubled, among them.
 * No unpaired surrogates: a Rust string cannot hold one (the tokenizer's own tests cover them).
 */
final class TextGenerator {

    private static final List<String> PIECES = List.of("'s", "'S", "'t", "'re", "'VE", "'m", "'ll", "'LL", "'d",
            "'", "\"", "é", "e\u0301", "ß", "ſ", "İ", "ﬁ", "Ω", "Å", "ñ", ".", ",", "!?", "->", "...", "::", "{", "}",
            "(", ")", "[", "]", "<", ">", "|", "<|", "|>", "#", "$", "%", "@", "\\", "/", "*", "_", "-", "+", "=",
            "😀", "👍🏽", "👨‍👩‍👧", "🇩🇪", "\u200B", "\u200D", "\uFEFF", "\u00AD", "中文", "你好", "世界", "こんにちは",
            "カタカナ", "한국어", "Привет", "мир", "مرحبا", "שלום", "नमस्ते", "ไทย", "Ελληνικά", "١٢٣", "४२", "½", "²",
            "Ⅻ", "\u0000", "\u0007", "\u007F", "\u0085", "def", "return", "the", "The", "THE", "a", "I", "x");

    private static final String[] SPACES = {" ", "\t", "\n", "\r", "\r\n", "\u00A0", "\u3000", "\u2003", "\u2028",
        "\u000B", "\u000C"};

    private TextGenerator() {
    }

    /** A random text of up to 24 pieces; {@code added} are the tokenizer's added tokens, mixed in whole or broken. */
    static String text(Random random, List<String> added) {
        StringBuilder text = new StringBuilder();
        for (int k = random.nextInt(25); k > 0; k--) {
            switch (random.nextInt(10)) {
                case 0 -> text.repeat(SPACES[random.nextInt(SPACES.length)], 1 + random.nextInt(6));
                case 1 -> digits(random, text);
                case 2 -> letters(random, text);
                case 3 -> text.appendCodePoint(anyCodePoint(random));
                case 4 -> {
                    if (!added.isEmpty()) {
                        String token = added.get(random.nextInt(added.size()));
                        text.append(random.nextInt(4) == 0 ? token.substring(0, 1 + random.nextInt(token.length()))
                                : token);
                    }
                }
                default -> text.append(PIECES.get(random.nextInt(PIECES.size())));
            }
        }
        return text.toString();
    }

    /** The text with control characters and non-ASCII written as escapes, for failure messages. */
    static String escaped(String text) {
        StringBuilder out = new StringBuilder();
        text.chars().forEach(c -> {
            if (c >= 0x20 && c < 0x7F) {
                out.append((char) c);
            } else {
                out.append(String.format("\\u%04X", c));
            }
        });
        return out.toString();
    }

    private static void digits(Random random, StringBuilder text) {
        for (int n = 1 + random.nextInt(9); n > 0; n--) {
            text.append((char) ('0' + random.nextInt(10)));
        }
    }

    private static void letters(Random random, StringBuilder text) {
        for (int n = 1 + random.nextInt(8); n > 0; n--) {
            char c = (char) ('a' + random.nextInt(26));
            text.append(random.nextInt(5) == 0 ? Character.toUpperCase(c) : c);
        }
    }

    /** Any assigned or unassigned code point outside the surrogates, weighted towards the lower planes. */
    private static int anyCodePoint(Random random) {
        int limit = switch (random.nextInt(4)) {
            case 0 -> 0x80;
            case 1 -> 0x800;
            case 2 -> 0x10000;
            default -> 0x110000;
        };
        int c;
        do {
            c = random.nextInt(limit);
        } while (c >= 0xD800 && c <= 0xDFFF);
        return c;
    }
}
