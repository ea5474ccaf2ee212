package dev.crucible.application.job;

import java.time.Duration;
import java.util.Objects;

/**
 * Timing of the job runner.
 *
 * @param pollInterval wait between claims when the queue is empty
 * @param heartbeatInterval how often a running job's heartbeat is written
 * @param staleAfter a running job whose heartbeat is older than this is presumed orphaned by a dead runner
 */
public record RunnerSettings(Duration pollInterval, Duration heartbeatInterval, Duration staleAfter) {

    public RunnerSettings {
        Objects.requireNonNull(pollInterval, "pollInterval");
        Objects.requireNonNull(heartbeatInterval, "heartbeatInterval");
        Objects.requireNonNull(staleAfter, "staleAfter");
        if (staleAfter.compareTo(heartbeatInterval.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("staleAfter must be at least twice heartbeatInterval, got "
                    + staleAfter + " and " + heartbeatInterval);
        }
    }
}
