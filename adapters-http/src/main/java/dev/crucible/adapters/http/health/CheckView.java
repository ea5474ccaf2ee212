package dev.crucible.adapters.http.health;

import dev.crucible.application.health.Check;
import io.micronaut.serde.annotation.Serdeable;

/** One check on the wire: {@code {success, duration_ms, error}}. */
@Serdeable(naming = io.micronaut.serde.config.naming.SnakeCaseStrategy.class)
record CheckView(boolean success, long durationMs, String error) {

    static CheckView of(Check check) {
        return new CheckView(check.success(), check.durationMs(), check.error());
    }
}
