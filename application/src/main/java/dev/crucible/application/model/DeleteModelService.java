package dev.crucible.application.model;

import dev.crucible.application.job.JobStore;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.job.JobEvent;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.Model;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Cancels the model's active jobs (each ends with {@code training_failed}, so polling clients stop), deletes
 * the model and its checkpoints in one transaction, then removes its adapter files.
 */
public record DeleteModelService(ModelStore models, JobStore jobs, AdapterFiles adapters, Clock clock)
        implements DeleteModelUseCase {

    static final String CANCEL_REASON = "job cancelled: its model was deleted";

    @Override
    public Outcome<Deleted> delete(Command command) {
        return ModelLookup.ownedBy(models, command.caller(), command.modelId()).map(this::deleteOwned);
    }

    private Deleted deleteOwned(Model model) {
        Instant now = clock.instant();
        List<TrainingJob> cancelled = new ArrayList<>();
        List<JobEvent> events = new ArrayList<>();
        for (TrainingJob job : jobs.active(model.id())) {
            cancelled.add(job.cancel(now, CANCEL_REASON));
            events.add(JobEvent.failed(job.id(), CANCEL_REASON, now));
        }
        int deleted = models.delete(model, cancelled, events);
        adapters.deleteModel(model.id());
        return new Deleted(model.id(), deleted);
    }
}
