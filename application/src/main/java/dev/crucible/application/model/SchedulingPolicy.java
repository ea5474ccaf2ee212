package dev.crucible.application.model;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * How a served model orders the requests waiting for its batch, set per model in the server's configuration. Under
 * both, requests of different entities take turns, so one tenant cannot starve another.
 */
public enum SchedulingPolicy {

    /** First come, first served; a request's non-zero {@code priority} is refused, as vLLM refuses it. */
    FCFS,
    /** Lower {@code priority} values first, then arrival. */
    PRIORITY;

    /** The name in configuration and in {@code GET /v1/models}: the constant's name in lower case. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The policy named {@code name} (its wire name), if any. */
    public static Optional<SchedulingPolicy> of(String name) {
        return Arrays.stream(values()).filter(p -> p.wireName().equals(name)).findFirst();
    }
}
