package dev.crucible.application.primitives;

import dev.crucible.application.inference.serving.AdapterCache;
import dev.crucible.application.inference.serving.AdapterSource;
import dev.crucible.application.inference.serving.ServedModel;
import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.application.model.AdapterFiles;
import dev.crucible.application.usage.UsageRecorder;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.domain.usage.CompletionUsage;
import dev.crucible.domain.usage.UsageProject;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.runtime.generation.GenerationRequest;
import dev.crucible.runtime.generation.GenerationResult;
import dev.crucible.runtime.generation.RequestOwner;
import dev.crucible.runtime.generation.sampling.SamplingParams;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Accepts a sample: sampler and prompt checked, the settings made into the generator's parameters, the operation
 * logged, then generated on a thread of its own through the base model's generator (batched with chat requests), with
 * the session's adapter leased from the adapter cache as chat does.
 */
public final class SampleService implements SampleUseCase, AutoCloseable {

    private final PrimitiveStore store;
    private final OperationLog log;
    private final ServedModels served;
    private final AdapterFiles adapters;
    private final AdapterCache cache;
    private final PrimitiveLimits limits;
    private final Clock clock;
    private final OperationExecution execution;
    private final UsageRecorder usage;
    /** Unfinished {@code asample} calls per key, bounded by {@link PrimitiveLimits#maxSamplesInFlight()}. */
    private final KeyBudget inFlight;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

    public SampleService(PrimitiveStore store, OperationLog log, OperationSignals signals, ServedModels served,
            AdapterFiles adapters, AdapterCache cache, PrimitiveLimits limits, UsageRecorder usage, Clock clock) {
        this.store = store;
        this.log = log;
        this.served = served;
        this.adapters = adapters;
        this.cache = cache;
        this.limits = limits;
        this.inFlight = new KeyBudget(limits.maxSamplesInFlight());
        this.clock = clock;
        this.execution = new OperationExecution(log, signals, clock);
        this.usage = usage;
    }

    @Override
    public Outcome<UUID> sample(Command command) {
        Optional<SamplingSession> sampler = RequestIds.parse(command.sampler())
                .flatMap(id -> store.findSampler(command.caller().entity(), id));
        if (sampler.isEmpty()) {
            return Outcome.refused(Refusal.notFound("sampling_session_id", "no sampling session '"
                    + RequestIds.excerpt(command.sampler()) + "'"));
        }
        Optional<ServedModel> base = served.find(sampler.get().baseModel());
        if (base.isEmpty()) {
            return Outcome.refused(Refusal.invalid("sampling_session_id", "its base model '"
                    + sampler.get().baseModel() + "' is not served by this server"));
        }
        Outcome<SamplingParams> params = SampleParameters.of(command, base.get(), limits);
        if (params instanceof Outcome.Refused<SamplingParams> refused) {
            return Outcome.refused(refused.refusal());
        }
        SamplingParams checked = ((Outcome.Done<SamplingParams>) params).value();
        UUID key = command.caller().keyId();
        if (!inFlight.tryTake(key)) {
            return Outcome.refused(Refusal.overloaded("this key has " + limits.maxSamplesInFlight() + " samples in "
                    + "flight, the most it may (setting crucible.primitives.max-samples-in-flight)",
                    Duration.ofSeconds(1)));
        }
        boolean queued = false;
        try {
            Operation op = new Operation(UUID.randomUUID(), command.caller().entity(), OperationKind.SAMPLE,
                    sampler.get().run(), command.seqId().isPresent() ? Optional.of("sampler:" + sampler.get().id())
                            : Optional.empty(), command.seqId(), command.digest(), clock.instant());
            Optional<StoredOperation> holder = log.insertUnlessSequenced(op);
            if (holder.isPresent()) {
                return SequencePlaces.retry(holder.get(), command.digest(), "seq_id", command.seqId().getAsLong());
            }
            RequestOwner owner = new RequestOwner(command.caller().entity().value(), key.toString());
            threads.execute(() -> {
                try {
                    execution.run(op.requestId(), () -> generate(sampler.get(), base.get(), command.prompt(), checked,
                            owner).map(result -> counted(command, sampler.get(), result)));
                } finally {
                    inFlight.give(key);
                }
            });
            queued = true;
            return Outcome.done(op.requestId());
        } finally {
            if (!queued) {
                inFlight.give(key);
            }
        }
    }

    /** Counts a sample in the usage API under the entity's default project, by the model it sampled. */
    private OperationResult counted(Command command, SamplingSession sampler, GenerationResult result) {
        EntityName entity = command.caller().entity();
        String model = sampler.run().map(run -> TrainingRun.address(entity, run)).orElse(sampler.baseModel());
        usage.record(new CompletionUsage(entity, UsageProject.defaultOf(entity), model, command.caller().keyId(),
                clock.instant(), result.promptTokens(), result.completionTokens(), result.cachedTokens()));
        return new OperationResult.Sampled(SampleParameters.output(command.prompt(), result, command.settings()));
    }

    private Outcome<GenerationResult> generate(SamplingSession sampler, ServedModel base, int[] prompt,
            SamplingParams params, RequestOwner owner) {
        Optional<Path> folder = sampler.run().flatMap(run -> sampler.step().isPresent()
                ? adapters.stepFolder(run, sampler.step().getAsInt()) : Optional.empty());
        if (sampler.step().isPresent() && folder.isEmpty()) {
            // the checkpoint's files are gone (the model or the checkpoint was deleted since)
            return Outcome.refused(Refusal.notFound("sampling_session_id", "the sampler's checkpoint was deleted"));
        }
        Optional<AdapterCache.Lease> lease = folder.map(f -> cache.acquire(base,
                new AdapterSource(sampler.run().orElseThrow(), sampler.step().getAsInt(), f)));
        try {
            GenerationRequest request = new GenerationRequest(prompt, params, 0,
                    lease.map(AdapterCache.Lease::adapter).orElse(null), Optional.empty(), owner);
            return base.generator().generate(request);
        } finally {
            lease.ifPresent(AdapterCache.Lease::close);
        }
    }

    @Override
    public void close() {
        threads.shutdownNow();
    }
}
