package dev.crucible.application.training;

import dev.crucible.application.job.TrainingProgress;
import dev.crucible.application.job.TrainingResult;
import dev.crucible.application.model.AdapterFiles;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.SftConfig;
import dev.crucible.domain.job.SftExample;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.engine.spi.LoraTrainer;
import dev.crucible.engine.spi.TrainingBatchResult;
import dev.crucible.engine.spi.TrainingSequence;
import dev.crucible.runtime.training.CrossEntropyObjective;
import dev.crucible.runtime.training.SftTokenizer;
import dev.crucible.runtime.training.TokenizedTurns;
import dev.crucible.runtime.training.TrainingInputException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * An SFT job: its JSONL dataset loaded, one optimiser step per batch of consecutive examples with cross-entropy on
 * the assistant's tokens, each batch split into micro-batches of at most {@code microBatchTokens} tokens whose
 * gradients accumulate. Kept apart from RL because the two share only the adapter and the step metrics.
 */
final class SftTraining {

    private final AdapterFiles adapters;
    private final SftDataSource sftData;
    private final TrainingSettings settings;
    private final Clock clock;

    SftTraining(AdapterFiles adapters, SftDataSource sftData, TrainingSettings settings, Clock clock) {
        this.adapters = Objects.requireNonNull(adapters, "adapters");
        this.sftData = Objects.requireNonNull(sftData, "sftData");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    TrainingResult train(TrainingSetup setup, JobSpec.Sft job, TrainingJob record, TrainingProgress progress) {
        SftConfig config = job.config();
        long started = clock.millis();
        List<SftExample> examples = switch (sftData.load(record.entity(), job.trainingDataUrl())) {
            case Outcome.Done<List<SftExample>> done -> done.value();
            case Outcome.Refused<List<SftExample>> refused -> throw new TrainingInputException(
                    refused.refusal().message());
        };
        SftTokenizer tokenizer = new SftTokenizer(setup.tokens(), config.lastAssistantTurnOnly());
        int batchSize = config.batchSize().orElse(settings.autoBatchSize());
        List<List<TrainingSequence>> batches = new ArrayList<>();
        for (int from = 0; from < examples.size(); from += batchSize) {
            List<TrainingSequence> batch = new ArrayList<>();
            for (SftExample example : examples.subList(from, Math.min(examples.size(), from + batchSize))) {
                for (TokenizedTurns.Turns turns : tokenizer.tokenize(example.messages(), example.tools(),
                        "training data line " + example.line())) {
                    batch.add(new TrainingSequence(turns.tokenIds(), turns.targets()));
                }
            }
            batches.add(batch);
        }
        StepMetrics steps = new StepMetrics();
        try (LoraTrainer trainer = setup.newTrainer(settings, settings.sft())) {
            progress.started(batches.size(), Map.of("num_examples", examples.size(), "num_trainable_tokens",
                    batches.stream().flatMap(List::stream).mapToLong(TrainingSequence::targetCount).sum()));
            for (int b = 0; b < batches.size(); b++) {
                if (progress.cancelled()) {
                    return new TrainingResult.Failed("the job was cancelled");
                }
                long stepStart = System.nanoTime();
                List<TrainingSequence> batch = batches.get(b);
                long tokens = batch.stream().mapToLong(TrainingSequence::targetCount).sum();
                double loss = 0;
                List<float[]> entropies = new ArrayList<>();
                double norm = 0;
                double lr = config.learningRate(b);
                if (tokens > 0) {
                    CrossEntropyObjective objective = new CrossEntropyObjective(tokens);
                    for (List<TrainingSequence> micro : microBatches(batch)) {
                        TrainingBatchResult result = trainer.accumulate(micro, objective);
                        loss += result.loss();
                        entropies.addAll(result.entropies());
                    }
                    norm = trainer.step(lr, settings.sft().maxGradNorm());
                }
                progress.gradientStep(steps.record(loss, norm, lr,
                        new TrainingBatchResult(loss, List.of(), entropies), batch, System.nanoTime() - stepStart));
            }
            adapters.writeStep(setup.model().id(), setup.step(), trainer::save);
        }
        Map<String, Double> metrics = new TreeMap<>(steps.summary());
        metrics.put("data/step_num_trajectories", (double) examples.size());
        metrics.put("time/step_trainer_s", (clock.millis() - started) / 1000.0);
        return new TrainingResult.Trained(setup.step(), metrics);
    }

    /** The batch's sequences that train something, in micro-batches of at most {@code microBatchTokens} tokens. */
    private List<List<TrainingSequence>> microBatches(List<TrainingSequence> batch) {
        return MicroBatches.split(batch.stream().filter(s -> s.targetCount() > 0).toList(),
                settings.microBatchTokens());
    }
}
