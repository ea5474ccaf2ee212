package dev.crucible.runtime.structured;

import dev.crucible.kernel.python.PythonJson;

/**
 * Compact JSON text of JSON-shaped values, for enum and const literals and for the key a compiled constraint is
 * cached under: Python's {@code json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)},
 * with its failures as {@link InvalidConstraintException}s.
 */
final class JsonText {

    private static final PythonJson COMPACT = PythonJson.DEFAULT.ensureAscii(false).separators(",", ":")
            .allowNan(false);

    private JsonText() {
    }

    static String of(Object value) {
        try {
            return COMPACT.dumps(value);
        } catch (PythonJson.OutOfRange e) {
            throw new InvalidConstraintException("enum and const values must be finite numbers, got " + e.value());
        } catch (IllegalArgumentException e) {
            throw new InvalidConstraintException(e.getMessage());
        }
    }

    /** A JSON string literal: quotes, backslashes and control characters escaped. */
    static String string(String s) {
        StringBuilder out = new StringBuilder();
        PythonJson.appendQuoted(s, false, out);
        return out.toString();
    }
}
