package dev.crucible.application.health;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** Times each probe and turns its failure into a check result; one broken probe never hides the others. */
public final class SystemCheckService implements SystemCheckUseCase {

    private final Map<String, Probe> probes;

    /** @param probes the probes by check name, in reporting order */
    public SystemCheckService(Map<String, Probe> probes) {
        this.probes = new LinkedHashMap<>(Objects.requireNonNull(probes, "probes"));
    }

    @Override
    public Map<String, Check> check() {
        Map<String, Check> results = new LinkedHashMap<>();
        probes.forEach((name, probe) -> results.put(name, run(probe)));
        return results;
    }

    private static Check run(Probe probe) {
        long start = System.nanoTime();
        try {
            probe.probe();
            return new Check(true, elapsedMs(start), null);
        } catch (Exception e) {
            String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return new Check(false, elapsedMs(start), message);
        }
    }

    private static long elapsedMs(long start) {
        return (System.nanoTime() - start) / 1_000_000;
    }
}
