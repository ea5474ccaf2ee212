package dev.crucible.domain.idempotency;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.Objects;

/**
 * The client's name for one creating request, from its {@code Idempotency-Key} header: 1 to 255 printable ASCII
 * characters, as Stripe's API takes them (a UUID is the usual choice).
 */
public record IdempotencyKey(String value) {

    /** The header that carries the key, which is also the {@code param} of every refusal about it. */
    public static final String HEADER = "Idempotency-Key";
    static final int MAX_LENGTH = 255;

    public IdempotencyKey {
        Objects.requireNonNull(value, "value");
        if (problem(value) != null) {
            throw new IllegalArgumentException(problem(value));
        }
    }

    /** The key in {@code header}, or a refusal that says what is wrong with it. */
    public static Outcome<IdempotencyKey> parse(String header) {
        String problem = header == null ? "is missing" : problem(header);
        return problem == null ? Outcome.done(new IdempotencyKey(header))
                : Outcome.refused(Refusal.invalid(HEADER, HEADER + " " + problem));
    }

    private static String problem(String value) {
        if (value.isBlank()) {
            return "must not be blank";
        }
        if (value.length() > MAX_LENGTH) {
            return "must be at most " + MAX_LENGTH + " characters, got " + value.length();
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return "must be printable ASCII; character " + i + " is not";
            }
        }
        return null;
    }
}
