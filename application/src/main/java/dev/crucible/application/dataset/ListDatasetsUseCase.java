package dev.crucible.application.dataset;

import dev.crucible.domain.dataset.Dataset;
import dev.crucible.domain.paging.Page;
import dev.crucible.domain.paging.PageRequest;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;

/** A page of the caller's datasets in creation order; a cursor that is not one of them is refused ({@code after}). */
public interface ListDatasetsUseCase {

    Outcome<Page<Dataset>> list(Caller caller, PageRequest page);
}
