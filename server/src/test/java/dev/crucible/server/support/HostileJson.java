package dev.crucible.server.support;

import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random JSON values for the generated-input tests, built from what breaks storage and parsing: NUL, lone and paired
 * surrogates, brackets and separators a query string or a path reads, non-ASCII text, numbers past a double.
 */
public final class HostileJson {

    private static final String ALPHABET = "ab_-.[]=&%/:\u0000\ud800\udc00é😀 ";

    private HostileJson() {
    }

    /** A string of up to {@code max} characters of the alphabet. */
    public static String text(Random random, int max) {
        int length = random.nextInt(max + 1);
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return out.toString();
    }

    /** Any JSON value: numbers (an infinite one too), booleans, null, lists, objects, short and long strings. */
    public static Object value(Random random, int longText) {
        return switch (random.nextInt(9)) {
            case 0 -> random.nextInt();
            case 1 -> random.nextBoolean();
            case 2 -> null;
            case 3 -> List.of(text(random, 4));
            case 4 -> Map.of(text(random, 4), text(random, 4));
            case 5 -> random.nextDouble() * 1e12 - 5e11;
            case 6 -> text(random, longText);
            case 7 -> 1e308 * 10;
            default -> text(random, 20);
        };
    }
}
