package dev.crucible.domain.model;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The rule for deleting checkpoints by step: unknown steps are reported, not refused (deleting twice is
 * safe), and the latest step can never be deleted.
 *
 * @param toDelete steps that exist and will be deleted, ascending
 * @param notFound requested steps that do not exist, ascending
 */
public record CheckpointDeletion(List<Integer> toDelete, List<Integer> notFound) {

    public CheckpointDeletion {
        toDelete = List.copyOf(toDelete);
        notFound = List.copyOf(notFound);
    }

    /** Plans the deletion of {@code requested} among {@code existing} steps of a model whose latest is {@code latest}. */
    public static Outcome<CheckpointDeletion> plan(Set<Integer> requested, Set<Integer> existing, int latest) {
        if (requested.contains(latest)) {
            return Outcome.refused(Refusal.conflict("steps",
                    "step " + latest + " is the latest checkpoint and cannot be deleted"));
        }
        List<Integer> delete = new ArrayList<>();
        List<Integer> missing = new ArrayList<>();
        for (int step : new TreeSet<>(requested)) {
            (existing.contains(step) ? delete : missing).add(step);
        }
        return Outcome.done(new CheckpointDeletion(delete, missing));
    }
}
