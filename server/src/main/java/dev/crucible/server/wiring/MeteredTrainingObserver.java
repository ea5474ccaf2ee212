package dev.crucible.server.wiring;

import dev.crucible.application.job.TrainingObserver;
import dev.crucible.domain.job.JobType;
import dev.crucible.runtime.training.LogprobDrift;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;

/**
 * Training as Crucible's own meters, labelled {@code job_type} ({@code rl}, {@code sft}):
 * {@code crucible_gradient_steps_total}, {@code crucible_training_tokens_total} (its rate is the training throughput),
 * {@code crucible_training_tokens_per_second} (the last step's), and {@code crucible_job_duration_seconds} by
 * {@code outcome}, a histogram from a second to a day. The last RL step's distance between the trainer's and the
 * sampler's log-probabilities, labelled {@code operation} ({@code rl_job}, {@code forward_backward}):
 * {@code crucible_training_sampler_logprob_diff_mean} and {@code _max} (nats) and {@code crucible_training_sampler_kl_k3}
 * (the k3 estimate of KL(sampler || trainer)).
 */
final class MeteredTrainingObserver implements TrainingObserver {

    private static final Duration[] JOB_DURATION = {Duration.ofSeconds(1), Duration.ofSeconds(5),
        Duration.ofSeconds(15), Duration.ofSeconds(30), Duration.ofMinutes(1), Duration.ofMinutes(2),
        Duration.ofMinutes(5), Duration.ofMinutes(10), Duration.ofMinutes(30), Duration.ofHours(1),
        Duration.ofHours(2), Duration.ofHours(4), Duration.ofHours(8), Duration.ofHours(24)};

    private final MeterRegistry registry;
    private final Map<JobType, AtomicReference<Double>> lastRate = new ConcurrentHashMap<>();
    private final Map<String, AtomicReference<LogprobDrift>> lastDrift = new ConcurrentHashMap<>();

    MeteredTrainingObserver(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void gradientStep(JobType type, long tokens, Duration elapsed) {
        String tag = tag(type);
        Counter.builder("crucible.gradient.steps").description("Optimiser steps of training jobs")
                .tag("job_type", tag).register(registry).increment();
        Counter.builder("crucible.training.tokens").description("Tokens of the batches training steps ran on")
                .tag("job_type", tag).register(registry).increment(tokens);
        if (!elapsed.isZero() && !elapsed.isNegative()) {
            rate(type).set(tokens / (elapsed.toNanos() / 1e9));
        }
    }

    @Override
    public void samplerDrift(String operation, LogprobDrift drift) {
        lastDrift.computeIfAbsent(operation, o -> {
            AtomicReference<LogprobDrift> value = new AtomicReference<>(drift);
            driftGauge("crucible.training.sampler.logprob.diff.mean", "Mean |trainer - sampler| log-probability over "
                    + "the last RL step's tokens, in nats", o, value, LogprobDrift::meanAbs);
            driftGauge("crucible.training.sampler.logprob.diff.max", "Largest |trainer - sampler| log-probability "
                    + "of the last RL step's tokens, in nats", o, value, LogprobDrift::maxAbs);
            driftGauge("crucible.training.sampler.kl.k3", "k3 estimate of KL(sampler || trainer) over the last RL "
                    + "step's tokens, in nats", o, value, LogprobDrift::klK3);
            return value;
        }).set(drift);
    }

    private void driftGauge(String name, String description, String operation, AtomicReference<LogprobDrift> value,
            ToDoubleFunction<LogprobDrift> read) {
        Gauge.builder(name, value, v -> read.applyAsDouble(v.get())).description(description)
                .tag("operation", operation).register(registry);
    }

    @Override
    public void jobEnded(JobType type, String outcome, Duration ran) {
        Timer.builder("crucible.job.duration").description("How long a training job ran, from its claim to its end")
                .tag("job_type", tag(type)).tag("outcome", outcome).serviceLevelObjectives(JOB_DURATION)
                .register(registry).record(ran);
    }

    private AtomicReference<Double> rate(JobType type) {
        return lastRate.computeIfAbsent(type, t -> {
            AtomicReference<Double> value = new AtomicReference<>(0.0);
            Gauge.builder("crucible.training.tokens.per.second", value, AtomicReference::get)
                    .description("Tokens per second of the last training step").tag("job_type", tag(t))
                    .register(registry);
            return value;
        });
    }

    private static String tag(JobType type) {
        return type.name().toLowerCase(Locale.ROOT);
    }
}
