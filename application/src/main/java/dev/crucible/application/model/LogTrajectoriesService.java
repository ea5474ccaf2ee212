package dev.crucible.application.model;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.trajectory.SplitMetrics;
import java.util.Map;

/** Aggregates with {@link SplitMetrics} and stores trajectories and metrics in one transaction. */
public record LogTrajectoriesService(ModelStore models, TrajectoryLogStore logs) implements LogTrajectoriesUseCase {

    @Override
    public Outcome<Map<String, Double>> log(Command command) {
        String problem = SplitMetrics.splitProblem(command.split());
        if (problem != null) {
            return Outcome.refused(Refusal.invalid("split", problem));
        }
        return ModelLookup.ownedBy(models, command.caller(), command.modelId()).map(model -> {
            Map<String, Double> metrics = SplitMetrics.aggregate(command.split(), command.groups());
            logs.log(model.id(), command.split(), command.groups(), metrics);
            return metrics;
        });
    }
}
