package dev.crucible.application.dataset;

import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;

/** The rows of one of the caller's datasets, read lazily; not found as {@link GetDatasetUseCase} is. */
public interface ReadDatasetContentUseCase {

    Outcome<DatasetContent> content(Caller caller, String id);
}
