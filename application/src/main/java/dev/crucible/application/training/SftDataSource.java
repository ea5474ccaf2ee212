package dev.crucible.application.training;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.job.SftExample;
import dev.crucible.domain.tenancy.EntityName;
import java.util.List;

/** Reads an SFT job's dataset: every line of the JSONL at {@code trainingDataUrl}, checked. */
@FunctionalInterface
public interface SftDataSource {

    /**
     * @param entity the job's tenant (an uploaded file must be theirs)
     * @return the examples in file order, or a refusal whose message names the line at fault
     */
    Outcome<List<SftExample>> load(EntityName entity, String trainingDataUrl);
}
