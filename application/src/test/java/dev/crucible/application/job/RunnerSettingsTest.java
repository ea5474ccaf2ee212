package dev.crucible.application.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RunnerSettingsTest {

    private static final Duration POLL = Duration.ofSeconds(1);

    @Test
    void staleAfterMayBeExactlyTwoHeartbeats() {
        assertEquals(Duration.ofSeconds(20),
                new RunnerSettings(POLL, Duration.ofSeconds(10), Duration.ofSeconds(20)).staleAfter());
    }

    @Test
    void staleAfterBelowTwoHeartbeatsIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new RunnerSettings(POLL, Duration.ofSeconds(10), Duration.ofSeconds(19)));
        assertEquals("staleAfter must be at least twice heartbeatInterval, got PT19S and PT10S", e.getMessage());
    }

    @Test
    void everyDurationIsRequired() {
        Duration d = Duration.ofSeconds(1);
        assertThrows(NullPointerException.class, () -> new RunnerSettings(null, d, d.multipliedBy(2)));
        assertThrows(NullPointerException.class, () -> new RunnerSettings(d, null, d));
        assertThrows(NullPointerException.class, () -> new RunnerSettings(d, d, null));
    }
}
