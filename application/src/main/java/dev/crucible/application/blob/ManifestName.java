package dev.crucible.application.blob;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The name of a manifest: slash-separated segments of letters, digits, {@code .}, {@code _} and {@code -}, none of
 * them {@code .} or {@code ..} ({@code files/<file-id>}, {@code adapters/<model-id>/step-3}). Safe as a relative path
 * and as part of an object key.
 *
 * @param value the name
 */
public record ManifestName(String value) {

    private static final Pattern SEGMENTS = Pattern.compile("[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*");

    public ManifestName {
        Objects.requireNonNull(value, "value");
        if (!isValid(value)) {
            throw new IllegalArgumentException("manifest name must be slash-separated segments of [A-Za-z0-9._-], "
                    + "none . or .., got '" + value + "'");
        }
    }

    /** Whether {@code text} is a valid name (a stored key that is not one is not a manifest). */
    public static boolean isValid(String text) {
        if (text == null || text.length() > 1024 || !SEGMENTS.matcher(text).matches()) {
            return false;
        }
        for (String segment : text.split("/")) {
            if (segment.equals(".") || segment.equals("..")) {
                return false;
            }
        }
        return true;
    }

    /** Whether this name starts with {@code prefix} (plain text, so {@code adapters/<id>/} selects one model). */
    public boolean startsWith(String prefix) {
        return value.startsWith(prefix);
    }

    @Override
    public String toString() {
        return value;
    }
}
