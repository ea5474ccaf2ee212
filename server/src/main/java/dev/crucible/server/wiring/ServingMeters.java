package dev.crucible.server.wiring;

import dev.crucible.runtime.generation.Generator;
import dev.crucible.runtime.generation.GeneratorSnapshot;
import dev.crucible.application.inference.serving.ServedModels;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * Each served model's scheduler as meters, labelled {@code model_name}: vLLM's names where vLLM counts the same
 * thing (so its Grafana dashboards read Crucible), Crucible's own under {@code crucible.} for the waiting queue
 * (its bound, admissions, refusals, waits) and cancellations. Read from {@link Generator#snapshot()} when scraped.
 */
@Singleton
final class ServingMeters implements MeterBinder {

    private final ServedModels models;
    private final List<Supplier<Generator>> current = new CopyOnWriteArrayList<>();

    ServingMeters(ServedModels models) {
        this.models = models;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (String name : models.names()) {
            // the model's generator now: a model reloaded after its generation stopped has a new one
            Supplier<Generator> generator = () -> models.find(name).orElseThrow().generator();
            // meters hold their object weakly: this bean, which lives as long as the registry, holds it strongly
            current.add(generator);
            Tags tags = Tags.of("model_name", name);
            gauge(registry, "vllm:num_requests_running", "Requests generating now", generator, tags, s -> s.running());
            gauge(registry, "vllm:num_requests_waiting", "Requests waiting for a place in the batch", generator, tags,
                    s -> s.waiting());
            counter(registry, "vllm:generation_tokens", "Tokens generated", generator, tags, s -> s.generatedTokens());
            gauge(registry, "crucible.running.sequences", "Sequences generating now (n per request)", generator, tags,
                    s -> s.runningSequences());
            gauge(registry, "crucible.queue.capacity", "Requests that may wait; one more is a 429", generator, tags,
                    s -> s.maxWaiting());
            counter(registry, "crucible.requests.admitted", "Requests admitted to the batch", generator, tags,
                    s -> s.admitted());
            counter(registry, "crucible.requests.refused", "Requests refused with 429: the waiting queue was full",
                    generator, tags.and("reason", "queue_full"), s -> s.refused());
            counter(registry, "crucible.requests.cancelled", "Requests whose client went away while they waited",
                    generator, tags.and("phase", "waiting"), s -> s.cancelledWaiting());
            counter(registry, "crucible.requests.cancelled", "Requests whose client went away while they ran",
                    generator, tags.and("phase", "running"), s -> s.aborted());
            counter(registry, "crucible.forward.passes", "Batched forward passes", generator, tags, s -> s.forwards());
            counter(registry, "crucible.prefill.tokens", "Prompt tokens forwarded through the model (not restored "
                    + "from the prefix cache, nor copied between the n sequences of a request)", generator, tags,
                    s -> s.prefillTokens());
            counter(registry, "vllm:prefix_cache_queries", "Prompt tokens looked up in the prefix cache", generator,
                    tags, s -> s.prefixCache().queriedTokens());
            counter(registry, "vllm:prefix_cache_hits", "Prompt tokens restored from the prefix cache", generator,
                    tags, s -> s.prefixCache().hitTokens());
            gauge(registry, "crucible.prefix.cache.tokens", "Prompt tokens the prefix cache holds now", generator,
                    tags, s -> s.prefixCache().heldTokens());
            gauge(registry, "crucible.prefix.cache.prefixes", "Prompt prefixes the prefix cache holds now", generator,
                    tags, s -> s.prefixCache().heldPrefixes());
            gauge(registry, "crucible.prefix.cache.capacity.tokens", "The most prompt tokens the prefix cache holds",
                    generator, tags, s -> s.prefixCache().budgetTokens());
            counter(registry, "crucible.prefix.cache.evictions", "Prefixes evicted, least recently used first",
                    generator, tags, s -> s.prefixCache().evictions());
            FunctionCounter.builder("crucible.queue.wait", generator, g -> seconds(g.get().snapshot().totalWait()))
                    .description("Time admitted requests waited, summed (with crucible_requests_admitted_total, "
                            + "the mean wait)").baseUnit("seconds").tags(tags).register(registry);
            gauge(registry, "crucible.queue.wait.max.seconds", "The longest wait of an admitted request", generator,
                    tags, s -> seconds(s.maxWait()));
            gauge(registry, "crucible.queue.oldest.wait.seconds", "How long the longest-waiting request has waited",
                    generator, tags, s -> seconds(s.oldestWaiting()));
        }
    }

    private static double seconds(java.time.Duration duration) {
        return duration.toNanos() / 1e9;
    }

    private static void gauge(MeterRegistry registry, String name, String description, Supplier<Generator> generator,
            Tags tags, ToDoubleFunction<GeneratorSnapshot> value) {
        Gauge.builder(name, generator, g -> value.applyAsDouble(g.get().snapshot())).description(description)
                .tags(tags).strongReference(true).register(registry);
    }

    private static void counter(MeterRegistry registry, String name, String description,
            Supplier<Generator> generator, Tags tags, ToDoubleFunction<GeneratorSnapshot> value) {
        FunctionCounter.builder(name, generator, g -> value.applyAsDouble(g.get().snapshot())).description(description)
                .tags(tags).register(registry);
    }
}
