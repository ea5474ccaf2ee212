package dev.crucible.application.primitives;

import dev.crucible.application.training.MicroBatches;
import dev.crucible.engine.spi.LoraTrainer;
import dev.crucible.engine.spi.TokenObjective;
import dev.crucible.engine.spi.TrainingBatchResult;
import dev.crucible.engine.spi.TrainingSequence;
import dev.crucible.kernel.refusal.Outcome;
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
        double loss = 0;
        int from = 0;
        for (List<TrainingSequence> micro : MicroBatches.split(batch.sequences(), microBatchTokens)) {
            TokenObjective objective = Losses.objective(batch.function(), batch.config(),
                    batch.inputs().subList(from, from + micro.size()));
            from += micro.size();
            if (batch.forwardOnly()) {
                List<float[]> measured = trainer.logprobs(micro, true);
                loss += objective.evaluate(measured).loss();
                logprobs.addAll(measured);
            } else {
                TrainingBatchResult result = trainer.accumulate(micro, objective);
                loss += result.loss();
                logprobs.addAll(result.logprobs());
            }
        }
        List<Map<String, Tensor>> outputs = logprobs.stream().map(lp -> Map.<String, Tensor>of("logprobs",
                Tensor.Floats.of(lp))).toList();
        return Outcome.done(new OperationResult.ForwardBackward(new ForwardBackwardOutput("TensorData", outputs,
                Map.of("loss:sum", loss))));
    }

    Outcome<OperationResult> optimStep(LiveRun live, RunCommand.OptimStep step) {
        live.markStarted();
        // beta1, beta2, eps and weight_decay go to the step once LoraTrainer.step takes them (the trainer is made
        // with the SDK's defaults until then)
        double norm = live.trainer().step(step.learningRate(), step.gradClipNorm());
        return Outcome.done(new OperationResult.OptimStep(Map.of("grad_norm:mean", norm,
                "learning_rate:mean", step.learningRate())));
    }

}
