package dev.crucible.server.wiring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.process.ProcessRole;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The role wiring: which processes run the job runner. */
class CrucibleSettingsTest {

    private static CrucibleSettings settings(String role, boolean runnerEnabled) {
        return new CrucibleSettings(Path.of("data"), List.of(), null, null, null, null,
                new CrucibleSettings.Runner(runnerEnabled, Duration.ofMillis(500), Duration.ofSeconds(5),
                        Duration.ofSeconds(30)), 1, null, role, 16, null, null);
    }

    @Test
    void allAndWorkerRunJobsAndApiNever() {
        assertTrue(settings("all", true).runsJobs());
        assertTrue(settings("worker", true).runsJobs());
        assertFalse(settings("api", true).runsJobs());
    }

    @Test
    void switchingTheRunnerOffWinsOverTheRole() {
        assertFalse(settings("all", false).runsJobs());
        assertFalse(settings("worker", false).runsJobs());
    }

    @Test
    void noRoleIsAllAndAnUnknownOneFailsTheStart() {
        assertEquals(ProcessRole.ALL, settings(null, true).processRole());
        assertThrows(IllegalArgumentException.class, () -> settings("trainer", true).processRole());
    }
}
