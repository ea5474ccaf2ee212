package dev.crucible.application.primitives;

import dev.crucible.application.training.MicroBatches;
import dev.crucible.engine.spi.AdamWStep;
import dev.crucible.engine.spi.LoraTrainer;
import dev.crucible.engine.spi.TokenObjective;
import dev.crucible.engine.spi.TrainingSequence;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.runtime.training.loss.LossInputs;
import dev.crucible.runtime.training.loss.Losses;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs a training run's checked operations on its worker: {@code forward_backward} adds the batch's gradients to those
 * accumulated since the last {@code optim_step} (the loss a sum over every position, so micro-batches add up to the
 * whole), {@code forward} only measures, {@code optim_step} applies them. A refusal here is a failure of category
 * {@code user}.
 */
final class RunOperations {

    private final int microBatchTokens;

    RunOperations(int microBatchTokens) {
        this.microBatchTokens = microBatchTokens;
    }

    Outcome<OperationResult> forwardBackward(LiveRun live, PreparedBatch batch) {
        live.markStarted();
        LoraTrainer trainer = live.trainer();
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
        Map<String, Double> metrics = Losses.metrics(batch.function(), batch.config(), batch.inputs(), logprobs);
        return Outcome.done(new OperationResult.ForwardBackward(new ForwardBackwardOutput("TensorData", outputs,
                metrics)));
    }

    Outcome<OperationResult> optimStep(LiveRun live, RunCommand.OptimStep step) {
        live.markStarted();
        double norm = live.trainer().step(new AdamWStep(step.learningRate(), step.beta1(), step.beta2(), step.eps(),
                step.weightDecay(), step.gradClipNorm()));
        return Outcome.done(new OperationResult.OptimStep(Map.of("grad_norm:mean", norm,
                "learning_rate:mean", step.learningRate())));
    }
}
