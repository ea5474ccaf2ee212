package dev.crucible.server.wiring;

import dev.crucible.application.primitives.PrimitiveLimits;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import java.time.Duration;
import java.util.OptionalDouble;

/**
 * The training primitives' bounds ({@code crucible.primitives.*}); the defaults live in {@code application.yml}.
 *
 * @param maxLogprobDrift unset (absent or blank), or a number of nats {@code >= 0}; anything else fails the start
 * @param maxRunsPerEntity the live runs one entity may hold
 * @param maxRuns the live runs the process holds
 * @param runLease how long a worker's lease on a run lasts unrenewed: how long a killed worker's runs wait for another
 * @param claimPollInterval how often a worker renews its leases and looks for runs with queued operations
 * @param maxRunsPage the largest {@code limit} of one page of a caller's training runs
 */
@ConfigurationProperties("crucible.primitives")
record PrimitiveSettings(Duration longPoll, int maxDatums, int maxLoraRank, int microBatchTokens, int maxSamples,
        int maxSampleTokens, int maxSamplesInFlight, int maxOperationsInFlight, @Nullable String maxLogprobDrift,
        int maxRunsPerEntity, int maxRuns, Duration runLease, Duration claimPollInterval, int maxRunsPage) {

    PrimitiveLimits limits() {
        return new PrimitiveLimits(longPoll, maxDatums, maxLoraRank, microBatchTokens, maxSamples, maxSampleTokens,
                maxSamplesInFlight, maxOperationsInFlight, drift(maxLogprobDrift));
    }

    private static OptionalDouble drift(@Nullable String setting) {
        if (setting == null || setting.isBlank()) {
            return OptionalDouble.empty();
        }
        try {
            double limit = Double.parseDouble(setting.strip());
            if (limit >= 0 && Double.isFinite(limit)) {
                return OptionalDouble.of(limit);
            }
        } catch (NumberFormatException e) {
            // answered below with the setting's name
        }
        throw new IllegalArgumentException("crucible.primitives.max-logprob-drift must be a number of nats >= 0, got '"
                + setting + "'");
    }
}
