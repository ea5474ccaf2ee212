package dev.crucible.application.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SystemCheckServiceTest {

    private static final Probe OK = () -> {
    };

    @Test
    void aPassingProbeIsASuccessWithoutError() {
        Check check = new SystemCheckService(Map.of("api", OK)).check().get("api");
        assertTrue(check.success());
        assertNull(check.error());
    }

    @Test
    void aThrowingProbeIsAFailureWithItsMessage() {
        Check check = new SystemCheckService(Map.of("database", () -> {
            throw new IllegalStateException("connection refused");
        })).check().get("database");
        assertFalse(check.success());
        assertEquals("connection refused", check.error());
    }

    @Test
    void aFailureWithoutMessageIsNamedByItsExceptionType() {
        Check check = new SystemCheckService(Map.of("disk", () -> {
            throw new IOException();
        })).check().get("disk");
        assertFalse(check.success());
        assertEquals("IOException", check.error());
    }

    @Test
    void eachCheckIsTimed() {
        Map<String, Check> checks = new SystemCheckService(Map.of("slow", () -> Thread.sleep(30), "fast", OK)).check();
        assertTrue(checks.get("slow").durationMs() >= 30, checks::toString);
        assertTrue(checks.get("slow").durationMs() < 10_000, checks::toString);
        assertTrue(checks.get("fast").durationMs() >= 0, checks::toString);
        assertTrue(checks.get("fast").durationMs() < 10_000, checks::toString);
    }

    @Test
    void aFailingCheckIsTimedToo() {
        Check check = new SystemCheckService(Map.of("slow", () -> {
            Thread.sleep(30);
            throw new IllegalStateException("late");
        })).check().get("slow");
        assertTrue(check.durationMs() >= 30, check::toString);
        assertTrue(check.durationMs() < 10_000, check::toString);
    }

    @Test
    void checksKeepTheProbesOrderAndOneFailureHidesNoOther() {
        Map<String, Probe> probes = new LinkedHashMap<>();
        probes.put("api", OK);
        probes.put("database", () -> {
            throw new IllegalStateException("down");
        });
        probes.put("cpu_queue", OK);
        probes.put("gpu_queue", OK);
        Map<String, Check> checks = new SystemCheckService(probes).check();
        assertEquals(List.of("api", "database", "cpu_queue", "gpu_queue"), List.copyOf(checks.keySet()));
        assertTrue(checks.get("cpu_queue").success());
        assertTrue(checks.get("gpu_queue").success());
    }

    @Test
    void laterChangesToTheProbeMapDoNotLeakIn() {
        Map<String, Probe> probes = new LinkedHashMap<>(Map.of("api", OK));
        SystemCheckService service = new SystemCheckService(probes);
        probes.put("extra", OK);
        assertEquals(List.of("api"), List.copyOf(service.check().keySet()));
    }

    @Test
    void probesAreRequired() {
        assertThrows(NullPointerException.class, () -> new SystemCheckService(null));
    }
}
