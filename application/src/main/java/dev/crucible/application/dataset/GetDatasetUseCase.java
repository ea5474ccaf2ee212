package dev.crucible.application.dataset;

import dev.crucible.domain.dataset.Dataset;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;

/** One of the caller's datasets; another entity's, a malformed or a missing id is not found ({@code dataset_id}). */
public interface GetDatasetUseCase {

    Outcome<Dataset> get(Caller caller, String id);
}
