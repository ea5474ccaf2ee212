package dev.crucible.application.primitives;

import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;

/** Reads a run from the {@link PrimitiveStore}; see {@link RunInfoUseCase}. */
public record RunInfoService(PrimitiveStore store, ServedModels served) implements RunInfoUseCase {

    @Override
    public Outcome<RunInfo> info(Caller caller, String modelId) {
        return RequestIds.parse(modelId).map(ModelId::new).flatMap(id -> store.findRun(caller.entity(), id))
                .<Outcome<RunInfo>>map(run -> Outcome.done(new RunInfo(run, served.find(run.baseModel())
                        .map(m -> m.config().architecture().name().toLowerCase(java.util.Locale.ROOT))
                        .orElse("unknown"))))
                .orElseGet(() -> Outcome.refused(Refusal.notFound("model_id", "no model with model_id '"
                        + RequestIds.excerpt(modelId) + "'")));
    }
}
