package dev.crucible.server.wiring;

import dev.crucible.application.feedback.SpecLimits;
import io.micronaut.context.annotation.ConfigurationProperties;

/**
 * How large annotation specs may be and how much checking a value against one may cost
 * ({@code crucible.feedback.max-pattern-size} and {@code crucible.feedback.max-spec-*}); the defaults live in
 * {@code application.yml}.
 */
@ConfigurationProperties("crucible.feedback")
record SpecSettings(long maxPatternSize, int maxSpecSchemaNodes, int maxSpecSchemaDepth, long maxSpecCheckWork) {

    SpecLimits limits() {
        return new SpecLimits(maxPatternSize, maxSpecSchemaNodes, maxSpecSchemaDepth, maxSpecCheckWork);
    }
}
