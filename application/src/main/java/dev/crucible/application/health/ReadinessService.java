package dev.crucible.application.health;

import java.util.Map;

/** Readiness over the probes that gate traffic, timed and reported as the system check reports them. */
public final class ReadinessService implements ReadinessUseCase {

    private final SystemCheckService checks;

    /** @param probes the probes by check name, in reporting order */
    public ReadinessService(Map<String, Probe> probes) {
        this.checks = new SystemCheckService(probes);
    }

    @Override
    public Map<String, Check> check() {
        return checks.check();
    }
}
