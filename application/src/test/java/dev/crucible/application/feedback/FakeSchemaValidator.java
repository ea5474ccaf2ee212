package dev.crucible.application.feedback;

import java.util.Map;

/**
 * A stand-in for the JSON Schema adapter in the admission tests: it checks only the two keywords these tests' specs
 * hinge on, at the top level, {@code maximum} and {@code pattern} (through the application's own search, so that its
 * work counts). The JSON Schema verdicts themselves are tested with the adapter, in {@code adapters-jsonschema}.
 */
final class FakeSchemaValidator implements JsonSchemaValidator {

    @Override
    public boolean matches(Object value, Map<?, ?> schema, PatternSearch patterns, long maxSteps) {
        if (schema.get("maximum") instanceof Number max && value instanceof Number n
                && n.doubleValue() > max.doubleValue()) {
            return false;
        }
        return !(schema.get("pattern") instanceof String pattern)
                || value instanceof String text && patterns.find(pattern, text);
    }
}
