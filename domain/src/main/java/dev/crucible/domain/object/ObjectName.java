package dev.crucible.domain.object;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The name of a stored object ({@code object_id}), as Weave's {@code object_id_validator}: 1 to {@value #MAX_LENGTH}
 * characters from Python's {@code [\w._-]}, where {@code \w} is any Unicode letter or number and {@code _}. Lengths
 * count code points, as Python's {@code len} does.
 */
public record ObjectName(String value) {

    public static final int MAX_LENGTH = 128;

    public ObjectName {
        String problem = problem(value);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    /** Parses {@code text}, refusing an invalid name as an invalid {@code object_id}. */
    public static Outcome<ObjectName> parse(String text) {
        String problem = problem(text);
        return problem == null ? Outcome.done(new ObjectName(text))
                : Outcome.refused(Refusal.invalid("object_id", problem));
    }

    /** Whether {@code text} is a valid name (a lookup by an invalid name can find nothing). */
    public static boolean isValid(String text) {
        return problem(text) == null;
    }

    private static String problem(String text) {
        if (text == null || text.isEmpty()) {
            return "object_id must not be empty";
        }
        Set<String> invalid = text.codePoints().filter(c -> !allowed(c)).mapToObj(Character::toString)
                .collect(Collectors.toCollection(LinkedHashSet::new));
        if (!invalid.isEmpty()) {
            return "object_id '" + text + "' contains invalid characters " + invalid.stream()
                    .map(c -> "'" + c + "'").collect(Collectors.joining(", ", "[", "]"))
                    + "; use only letters, digits, underscores, periods and dashes";
        }
        int length = text.codePointCount(0, text.length());
        if (length > MAX_LENGTH) {
            return "object_id must be at most " + MAX_LENGTH + " characters, got " + length;
        }
        return null;
    }

    /** Python's {@code [\w._-]}: {@code \w} is {@code str.isalnum()} (letters and numbers) plus {@code _}. */
    private static boolean allowed(int c) {
        return switch (Character.getType(c)) {
            case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER,
                    Character.MODIFIER_LETTER, Character.OTHER_LETTER, Character.DECIMAL_DIGIT_NUMBER,
                    Character.LETTER_NUMBER, Character.OTHER_NUMBER -> true;
            default -> c == '_' || c == '.' || c == '-';
        };
    }

    @Override
    public String toString() {
        return value;
    }
}
