package dev.crucible.application.feedback;

import java.util.Map;

/**
 * Whether a JSON value matches a JSON Schema (2020-12): the port an annotation's {@code payload.value} is checked
 * through against its spec's {@code field_schema}; implemented outside the application with a JSON Schema library.
 * Values and schemas are JSON-shaped Java values (maps, lists, strings, numbers, booleans, null). Numbers compare by
 * value ({@code 1 == 1.0}), booleans are not numbers, {@code 1.0} is an integer, lengths count code points, and
 * annotation keywords ({@code format}, {@code title}, ...) do not assert. The schema holds only the keywords
 * {@link JsonSchemaSubset} allows, so it never refers outside itself.
 *
 * <p>Implementations are stateless and thread-safe.
 */
public interface JsonSchemaValidator {

    /**
     * Whether {@code value} is valid against {@code schema}.
     *
     * @param patterns searches each {@code pattern} keyword's text (unanchored, ECMA-262), counting its work
     * @param maxSteps the most keyword evaluations the check may take
     * @throws TooMuchWork when the check would take more than {@code maxSteps} steps, or {@code patterns} stops it
     */
    boolean matches(Object value, Map<?, ?> schema, PatternSearch patterns, long maxSteps);

    /** How the validator runs a schema's {@code pattern}: the application's linear-time engine and its budget. */
    @FunctionalInterface
    interface PatternSearch {

        /**
         * Whether {@code pattern} matches somewhere in {@code text}.
         *
         * @throws TooMuchWork when the search would pass the check's budget
         */
        boolean find(String pattern, String text);
    }

    /** A check stopped because it would do more work than {@link SpecLimits#maxCheckWork()} allows. */
    final class TooMuchWork extends RuntimeException {

        public TooMuchWork(long bound) {
            super("more than " + bound + " steps", null, false, false);
        }
    }
}
