package dev.crucible.application.primitives;

import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.time.Clock;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;

/** Sampling sessions in the {@link PrimitiveStore}; see {@link SamplersUseCase}. */
public record SamplersService(PrimitiveStore store, ServedModels served, Clock clock) implements SamplersUseCase {

    @Override
    public Outcome<SamplingSession> create(Caller caller, Optional<UUID> session, Optional<String> baseModel,
            Optional<String> modelPath) {
        if (modelPath.isPresent()) {
            Optional<TinkerPath> path = TinkerPath.parse(modelPath.get())
                    .filter(p -> p.kind().equals(TinkerPath.SAMPLER_WEIGHTS));
            Optional<TrainingRun> run = path.flatMap(p -> store.findRun(caller.entity(), p.run()));
            OptionalInt step = run.isEmpty() ? OptionalInt.empty()
                    : store.findState(caller.entity(), path.get().run(), path.get().kind(), path.get().name());
            if (step.isEmpty()) {
                return Outcome.refused(Refusal.notFound("model_path", "no sampler weights at '"
                        + RequestIds.excerpt(modelPath.get()) + "'"));
            }
            return Outcome.done(insert(new SamplingSession(UUID.randomUUID(), caller.entity(), session,
                    run.get().baseModel(), Optional.of(run.get().model()), step, modelPath, clock.instant())));
        }
        if (baseModel.isEmpty() || served.find(baseModel.get()).isEmpty()) {
            return Outcome.refused(Refusal.invalid("base_model", "base_model '" + baseModel.orElse("")
                    + "' is not served here; served base models: " + served.names()));
        }
        return Outcome.done(insert(new SamplingSession(UUID.randomUUID(), caller.entity(), session, baseModel.get(),
                Optional.empty(), OptionalInt.empty(), Optional.empty(), clock.instant())));
    }

    @Override
    public Outcome<SamplingSession> find(Caller caller, String samplerId) {
        return RequestIds.parse(samplerId).flatMap(id -> store.findSampler(caller.entity(), id))
                .<Outcome<SamplingSession>>map(Outcome::done)
                .orElseGet(() -> Outcome.refused(Refusal.notFound("sampler_id", "no sampling session '"
                        + RequestIds.excerpt(samplerId) + "'")));
    }

    private SamplingSession insert(SamplingSession sampler) {
        store.insertSampler(sampler);
        return sampler;
    }
}
