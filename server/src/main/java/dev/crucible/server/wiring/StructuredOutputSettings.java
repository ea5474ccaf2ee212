package dev.crucible.server.wiring;

import dev.crucible.runtime.structured.ConstraintBudgets;
import io.micronaut.context.annotation.ConfigurationProperties;

/**
 * Structured outputs ({@code crucible.structured-outputs.*}); the defaults live in {@code application.yml}.
 *
 * @param disableAnyWhitespace whether JSON constraints allow only the compact form, not any whitespace
 */
@ConfigurationProperties("crucible.structured-outputs")
record StructuredOutputSettings(boolean disableAnyWhitespace, int maxAutomatonSize, int maxGrammarSymbols,
        int maxParseWork) {

    ConstraintBudgets budgets() {
        return new ConstraintBudgets(maxAutomatonSize, maxGrammarSymbols, maxParseWork);
    }
}
