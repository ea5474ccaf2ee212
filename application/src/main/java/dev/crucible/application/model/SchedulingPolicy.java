package dev.crucible.application.model;

import java.util.Arrays;
import java.util.Optional;

/**
 * How a served model orders the requests waiting for its batch, set per model in the server's configuration. Under
 * both, requests of different entities take turns, so one tenant cannot starve another.
 */
public enum SchedulingPolicy {

    /** First come, first served; a request's non-zero {@code priority} is refused, as vLLM refuses it. */
    FCFS("fcfs"),
    /** Lower {@code priority} values first, then arrival. */
    PRIORITY("priority");

    private final String wireName;

    SchedulingPolicy(String wireName) {
        this.wireName = wireName;
    }

    /** The name in configuration and in {@code GET /v1/models}: {@code fcfs} or {@code priority}. */
    public String wireName() {
        return wireName;
    }

    /** The policy named {@code name} (its wire name), if any. */
    public static Optional<SchedulingPolicy> of(String name) {
        return Arrays.stream(values()).filter(p -> p.wireName.equals(name)).findFirst();
    }
}
