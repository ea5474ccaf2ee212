package dev.crucible.application.primitives;

import dev.crucible.domain.model.ModelId;
import java.util.HashSet;
import java.util.Set;

/**
 * One round of a worker's claims ({@link RunClaimer}): of the runs it holds in memory, those whose lease it no longer
 * holds are dropped (another worker took them over after the lease ran out, or they were unloaded), and it claims at
 * most as many runs as it has places left. Pure.
 *
 * @param drop runs held in memory whose lease is gone
 * @param free how many runs it may claim now
 */
record ClaimPlan(Set<ModelId> drop, int free) {

    ClaimPlan {
        drop = Set.copyOf(drop);
        if (free < 0) {
            throw new IllegalArgumentException("free must be >= 0, got " + free);
        }
    }

    /**
     * @param inMemory the runs this worker holds live
     * @param leased   the runs whose lease it renewed this round
     * @param capacity the most runs it holds at once
     */
    static ClaimPlan of(Set<ModelId> inMemory, Set<ModelId> leased, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        Set<ModelId> drop = new HashSet<>(inMemory);
        drop.removeAll(leased);
        // A lease held without the run in memory (this worker's claim whose load failed) still takes a place.
        Set<ModelId> kept = new HashSet<>(inMemory);
        kept.retainAll(leased);
        Set<ModelId> places = new HashSet<>(kept);
        places.addAll(leased);
        return new ClaimPlan(drop, Math.max(0, capacity - places.size()));
    }
}
