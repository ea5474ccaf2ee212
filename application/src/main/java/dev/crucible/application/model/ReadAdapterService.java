package dev.crucible.application.model;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.model.Model;

/** Finds the caller's model, then the adapter folder of the step asked for. */
public record ReadAdapterService(ModelStore models, CheckpointStore checkpoints, AdapterFiles adapters)
        implements ReadAdapterUseCase {

    @Override
    public Outcome<Adapter> read(Command command) {
        return ModelLookup.ownedBy(models, command.caller(), command.modelId()).then(model -> folder(model, command.step()));
    }

    private Outcome<Adapter> folder(Model model, int step) {
        if (step == 0) {
            return Outcome.refused(Refusal.notFound("step",
                    "step 0 is the base model itself (the zero adapter): it has no adapter files"));
        }
        if (!checkpoints.steps(model.id()).contains(step)) {
            return Outcome.refused(Refusal.notFound("step", "model " + model.id() + " has no checkpoint at step " + step));
        }
        return adapters.stepFolder(model.id(), step)
                .<Outcome<Adapter>>map(f -> Outcome.done(new Adapter(f, model.coordinates().name() + "-step-" + step)))
                .orElseGet(() -> Outcome.refused(Refusal.notFound("step", "checkpoint step " + step
                        + " of model " + model.id() + " has no adapter files")));
    }
}
