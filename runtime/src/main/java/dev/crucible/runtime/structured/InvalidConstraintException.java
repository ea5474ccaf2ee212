package dev.crucible.runtime.structured;

/**
 * A regex or schema the compilers cannot turn into a constraint (invalid, unsupported or too large). Thrown inside
 * the compilers and turned into a {@code Refusal} at their public entry points, never past them.
 */
final class InvalidConstraintException extends RuntimeException {

    InvalidConstraintException(String message) {
        super(message);
    }
}
