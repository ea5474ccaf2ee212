package dev.crucible.application.model;

import dev.crucible.kernel.wire.WireName;
import java.util.Optional;

/**
 * How a served model orders the requests waiting for its batch, set per model in the server's configuration. Under
 * both, requests of different entities take turns, so one tenant cannot starve another. Its wire name, in
 * configuration and in {@code GET /v1/models}, is the constant's name in lower case.
 */
public enum SchedulingPolicy implements WireName {

    /** First come, first served; a request's non-zero {@code priority} is refused, as vLLM refuses it. */
    FCFS,
    /** Lower {@code priority} values first, then arrival. */
    PRIORITY;

    /** The policy named {@code name} (its wire name), if any. */
    public static Optional<SchedulingPolicy> of(String name) {
        return WireName.find(values(), name);
    }
}
