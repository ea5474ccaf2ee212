package dev.crucible.application.dataset;

import dev.crucible.domain.dataset.Dataset;
import dev.crucible.domain.dataset.DatasetRequest;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;
import java.util.Map;
import java.util.Objects;

/**
 * Builds and stores a dataset from the caller's stored completions and feedback: refused as invalid ({@code filter})
 * when it would be empty, as too large ({@code filter}) past the row or completion bound.
 */
public interface CreateDatasetUseCase {

    Outcome<Dataset> create(Command command);

    /**
     * @param query the request's filter, feedback and reward parts as they go back on the wire, without nulls
     */
    record Command(Caller caller, DatasetRequest request, Map<String, Object> query) {
        public Command {
            Objects.requireNonNull(caller, "caller");
            Objects.requireNonNull(request, "request");
            query = Map.copyOf(query);
        }
    }
}
