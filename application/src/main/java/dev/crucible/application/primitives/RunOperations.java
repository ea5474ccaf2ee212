package dev.crucible.application.primitives;

import dev.crucible.application.job.TrainingObserver;
import dev.crucible.application.training.MicroBatches;
import dev.crucible.engine.spi.AdamWStep;
import dev.crucible.engine.spi.LoraTrainer;
import dev.crucible.engine.spi.TokenObjective;
import dev.crucible.engine.spi.TrainingSequence;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.runtime.training.LogprobDrift;
import dev.crucible.runtime.training.loss.LossInputs;
import dev.crucible.runtime.training.loss.Losses;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Runs a training run's checked operations on its worker: {@code forward_backward} adds the batch's gradients to those
 * accumulated since the last {@code optim_step} (the loss a sum over every position, so micro-batches add up to the
 * whole), {@code forward} only measures, {@code optim_step} applies them. With an RL loss (one that reads the
 * sampler's {@code logprobs}) both report how far the trainer's log-probabilities are from the sampler's
 * ({@link LogprobDrift}) in their metrics; above {@code crucible.primitives.max-logprob-drift} a
 * {@code forward_backward} is refused, measured by a forward pass before any gradient is accumulated. A refusal here is
 * a failure of category {@code user}.
 */
final class RunOperations {

    private static final String DRIFT_SETTING = "crucible.primitives.max-logprob-drift";

    private final int microBatchTokens;
    private final OptionalDouble maxLogprobDrift;
    private final TrainingObserver observer;

    RunOperations(int microBatchTokens, OptionalDouble maxLogprobDrift, TrainingObserver observer) {
        this.microBatchTokens = microBatchTokens;
        this.maxLogprobDrift = maxLogprobDrift;
        this.observer = observer;
    }

    Outcome<OperationResult> forwardBackward(LiveRun live, PreparedBatch batch) {
        live.markStarted();
        LoraTrainer trainer = live.trainer();
        boolean rl = batch.function().inputs().contains("logprobs");
        if (rl && !batch.forwardOnly() && maxLogprobDrift.isPresent()) {
            List<float[]> before = new ArrayList<>();
            MicroBatches.split(batch.sequences(), microBatchTokens).forEach(m -> before.addAll(trainer.logprobs(m,
                    true)));
            Optional<LogprobDrift> drift = drift(batch, before);
            double limit = maxLogprobDrift.getAsDouble();
            if (drift.isPresent() && drift.get().exceeds(limit)) {
                observer.samplerDrift(TrainingObserver.FORWARD_BACKWARD, drift.get());
                return Outcome.refused(Refusal.invalid("forward_backward_input.data",
                        "forward_backward was refused and accumulated nothing: " + drift.get().describe(limit,
                                DRIFT_SETTING)));
            }
        }
        List<float[]> logprobs = new ArrayList<>();
        int from = 0;
        for (List<TrainingSequence> micro : MicroBatches.split(batch.sequences(), microBatchTokens)) {
            List<LossInputs> inputs = batch.inputs().subList(from, from + micro.size());
            from += micro.size();
            if (batch.forwardOnly()) {
                logprobs.addAll(trainer.logprobs(micro, true));
            } else {
                TokenObjective objective = Losses.objective(batch.function(), batch.config(), inputs);
                logprobs.addAll(trainer.accumulate(micro, objective).logprobs());
            }
        }
        List<Map<String, Tensor>> outputs = logprobs.stream().map(lp -> Map.<String, Tensor>of("logprobs",
                Tensor.Floats.of(lp))).toList();
        // The metrics at the logprobs the gradients were taken at: loss:sum is the objective's sum (micro-batches
        // add up to the whole call), clip_fraction:mean a per-datum average over the whole call.
        Map<String, Double> metrics = new LinkedHashMap<>(Losses.metrics(batch.function(), batch.config(),
                batch.inputs(), logprobs));
        if (rl) {
            Optional<LogprobDrift> drift = drift(batch, logprobs);
            // JSON has no NaN or infinity: a sampler that claimed an impossible token leaves its drift out
            drift.ifPresent(d -> d.tinkerMetrics().forEach((k, v) -> {
                if (Double.isFinite(v)) {
                    metrics.put(k, v);
                }
            }));
            if (!batch.forwardOnly()) {
                drift.ifPresent(d -> observer.samplerDrift(TrainingObserver.FORWARD_BACKWARD, d));
            }
        }
        return Outcome.done(new OperationResult.ForwardBackward(new ForwardBackwardOutput("TensorData", outputs,
                metrics)));
    }

    /** The drift over the positions the loss trains, those with a non-zero advantage. */
    private static Optional<LogprobDrift> drift(PreparedBatch batch, List<float[]> logprobs) {
        return LogprobDrift.measure(logprobs, batch.inputs().stream().map(LossInputs::trainedSamplerLogprobs)
                .toList());
    }

    Outcome<OperationResult> optimStep(LiveRun live, RunCommand.OptimStep step) {
        live.markStarted();
        double norm = live.trainer().step(new AdamWStep(step.learningRate(), step.beta1(), step.beta2(), step.eps(),
                step.weightDecay(), step.gradClipNorm()));
        return Outcome.done(new OperationResult.OptimStep(Map.of("grad_norm:mean", norm,
                "learning_rate:mean", step.learningRate())));
    }
}
