package dev.crucible.domain.tenancy;

import java.util.regex.Pattern;

/**
 * The rule for entity, project and model names: they are path segments of
 * {@code <scheme>:///<entity>/<project>/<name>:step<N>}, so they may not hold {@code /}, {@code :} or whitespace.
 */
public final class Names {

    public static final int MAX_LENGTH = 128;
    private static final Pattern SEGMENT = Pattern.compile("[^/:\\s\\p{Cntrl}]{1," + MAX_LENGTH + "}");

    private Names() {
    }

    /** Returns the problem with {@code value} as a name of kind {@code what}, or null when it is valid. */
    public static String problem(String what, String value) {
        if (value == null || value.isEmpty()) {
            return what + " must not be empty";
        }
        if (!SEGMENT.matcher(value).matches()) {
            return what + " must be 1 to " + MAX_LENGTH
                    + " characters without '/', ':' or whitespace, got '" + value + "'";
        }
        return null;
    }

    /** Throws when {@code value} is not a valid name; for invariants the caller already checked. */
    public static String require(String what, String value) {
        String problem = problem(what, value);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return value;
    }
}
