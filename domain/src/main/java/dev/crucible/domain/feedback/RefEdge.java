package dev.crucible.domain.feedback;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One step of the path into an object: an edge kind and its value (percent-decoded).
 *
 * @param kind which kind of step
 * @param value the key, attribute, row id, or (for {@link Kind#INDEX}) an integer
 */
public record RefEdge(Kind kind, String value) {

    private static final Pattern INTEGER = Pattern.compile("\\s*[+-]?[0-9]+\\s*");

    /** The edge kinds of Weave's ref grammar. */
    public enum Kind {
        KEY, INDEX, ATTR, ID;

        /** The kind written as {@code name} in a ref ({@code key}, {@code index}, {@code attr}, {@code id}). */
        public static Optional<Kind> fromWire(String name) {
            for (Kind kind : values()) {
                if (kind.wireName().equals(name)) {
                    return Optional.of(kind);
                }
            }
            return Optional.empty();
        }

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public RefEdge {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(value, "value");
        if (kind == Kind.INDEX && !isInteger(value)) {
            throw new IllegalArgumentException("index edge value must be an integer, got '" + value + "'");
        }
    }

    /** Whether {@code value} reads as an integer the way Python's {@code int(str)} would (sign, blanks around). */
    static boolean isInteger(String value) {
        return INTEGER.matcher(value).matches();
    }
}
