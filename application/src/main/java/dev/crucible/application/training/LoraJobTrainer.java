package dev.crucible.application.training;

import dev.crucible.application.inference.serving.ServedModel;
import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.application.job.JobTrainer;
import dev.crucible.application.job.TrainingProgress;
import dev.crucible.application.job.TrainingResult;
import dev.crucible.application.model.AdapterFiles;
import dev.crucible.application.model.CheckpointStore;
import dev.crucible.application.model.ModelStore;
import dev.crucible.domain.refusal.Outcome;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.RlConfig;
import dev.crucible.domain.job.SftConfig;
import dev.crucible.domain.job.SftExample;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.trajectory.SplitMetrics;
import dev.crucible.engine.spi.EngineException;
import dev.crucible.engine.spi.LoraTrainer;
import dev.crucible.engine.spi.LoraTrainingSpec;
import dev.crucible.engine.spi.TrainingBatchResult;
import dev.crucible.engine.spi.TrainingSequence;
import dev.crucible.runtime.training.CrossEntropyObjective;
import dev.crucible.runtime.training.PolicyObjective;
import dev.crucible.runtime.training.RlPlan;
import dev.crucible.runtime.training.RlSequence;
import dev.crucible.runtime.training.SftTokenizer;
import dev.crucible.runtime.training.TokenizedTurns;
import dev.crucible.runtime.training.TrainingInputException;
import dev.crucible.runtime.training.TrainingModel;
import dev.crucible.runtime.training.TrajectoryTokenizer;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Trains a job's LoRA adapter on the served base model's training runner (the serving engine's, or the model in an
 * engine that can train when the serving one cannot), continuing from the model's latest checkpoint, and
 * stores the result as the adapter of the next step (the job runner then records that checkpoint). RL jobs take one
 * optimiser step per packed row of trajectories ({@link RlPlan}, {@link PolicyObjective}); SFT jobs one per batch of
 * consecutive examples with cross-entropy on the assistant's tokens. A job with nothing to train still stores the
 * adapter unchanged, so the step advances as ART expects. Bad input fails the job with a message that says where.
 */
public final class LoraJobTrainer implements JobTrainer {

    private final ModelStore models;
    private final CheckpointStore checkpoints;
    private final AdapterFiles adapters;
    private final ServedModels served;
    private final SftDataSource sftData;
    private final TrainingSettings settings;
    private final Clock clock;

    public LoraJobTrainer(ModelStore models, CheckpointStore checkpoints, AdapterFiles adapters, ServedModels served,
            SftDataSource sftData, TrainingSettings settings, Clock clock) {
        this.models = Objects.requireNonNull(models, "models");
        this.checkpoints = Objects.requireNonNull(checkpoints, "checkpoints");
        this.adapters = Objects.requireNonNull(adapters, "adapters");
        this.served = Objects.requireNonNull(served, "served");
        this.sftData = Objects.requireNonNull(sftData, "sftData");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * What one job trains with.
     *
     * @param steps the model's checkpoint steps when the job started
     */
    private record Setup(Model model, ServedModel base, TrainingModel tokens, Set<Integer> steps, int nextStep,
            Optional<Path> start) {
    }

    @Override
    public TrainingResult train(TrainingJob job, JobSpec spec, TrainingProgress progress) {
        Optional<Model> model = models.find(job.entity(), job.modelId());
        if (model.isEmpty()) {
            return new TrainingResult.Failed("the model was deleted before its training started");
        }
        Optional<ServedModel> base = served.find(model.get().baseModel());
        if (base.isEmpty()) {
            return new TrainingResult.Failed("base model '" + model.get().baseModel() + "' is not served by this "
                    + "server (served: " + String.join(", ", served.names()) + ")");
        }
        if (base.get().chatTemplate().isEmpty()) {
            return new TrainingResult.Failed("base model '" + model.get().baseModel() + "' has no chat template, so "
                    + "conversations cannot be tokenised for training");
        }
        Set<Integer> steps = checkpoints.steps(model.get().id());
        int latest = steps.stream().mapToInt(Integer::intValue).max().orElse(0);
        Setup setup = new Setup(model.get(), base.get(), new TrainingModel(base.get().tokenizer(),
                base.get().chatTemplate().get(), base.get().specialTokens(), base.get().maxModelLen()), steps,
                latest + 1, adapters.stepFolder(model.get().id(), latest));
        try {
            return switch (spec) {
                case JobSpec.Rl rl -> rl(setup, rl, progress);
                case JobSpec.Sft sft -> sft(setup, sft, job, progress);
            };
        } catch (TrainingInputException e) {
            return new TrainingResult.Failed(e.getMessage());
        } catch (EngineException e) {
            return new TrainingResult.Failed("training failed in the engine: " + e.getMessage());
        }
    }

    private LoraTrainer trainer(Setup setup, TrainingSettings.Optimiser o) {
        return setup.base().training().runner().newTrainer(new LoraTrainingSpec(settings.lora(), setup.start(), settings.seed(),
                o.beta1(), o.beta2(), o.epsilon(), o.weightDecay()));
    }

    private TrainingResult rl(Setup setup, JobSpec.Rl job, TrainingProgress progress) {
        RlConfig config = job.config();
        long started = clock.millis();
        RlPlan plan = RlPlan.of(job.trajectoryGroups(), config,
                new TrajectoryTokenizer(setup.tokens(), config.allowTrainingWithoutLogprobs()),
                setup.tokens().maxLength());
        Steps steps = new Steps();
        try (LoraTrainer trainer = trainer(setup, settings.rl());
                Reference reference = reference(setup, config)) {
            Map<String, Number> extra = new LinkedHashMap<>();
            extra.put("num_groups_submitted", plan.groupsSubmitted());
            extra.put("num_groups_trainable", plan.groupsTrainable());
            extra.put("num_trajectories", plan.trajectoriesTrained());
            extra.put("num_trainable_tokens", plan.trainedTokens());
            progress.started(plan.rows().size(), extra);
            List<List<RlSequence>> rows = plan.rows();
            List<List<float[]>> originals = null;
            if (config.precalculateLogprobs()) {
                originals = new ArrayList<>();
                List<List<RlSequence>> recomputed = new ArrayList<>();
                for (List<RlSequence> row : rows) {
                    originals.add(row.stream().map(RlSequence::logprobs).toList());
                    List<float[]> now = trainer.logprobs(sequences(row), true);
                    List<RlSequence> updated = new ArrayList<>();
                    for (int i = 0; i < row.size(); i++) {
                        updated.add(row.get(i).withLogprobs(now.get(i)));
                    }
                    recomputed.add(updated);
                }
                rows = recomputed;
            }
            for (int r = 0; r < rows.size(); r++) {
                if (progress.cancelled()) {
                    return new TrainingResult.Failed("the job was cancelled");
                }
                List<RlSequence> row = rows.get(r);
                long stepStart = System.nanoTime();
                List<TrainingSequence> batch = sequences(row);
                List<float[]> ref = reference == null ? null : reference.logprobs(trainer, batch);
                PolicyObjective objective = new PolicyObjective(row, config, ref,
                        truncation(config, row, originals == null ? null : originals.get(r)));
                TrainingBatchResult result = trainer.accumulate(batch, objective);
                double lr = config.learningRate() * Math.pow(distinctTrajectories(row), config.lrTrajectoryPower());
                double norm = trainer.step(lr, settings.rl().maxGradNorm());
                Map<String, Number> metrics = steps.record(result.loss(), norm, lr, result, batch,
                        System.nanoTime() - stepStart);
                metrics.put("policy_loss", result.loss());
                if (reference != null) {
                    metrics.put("kl_policy_ref", objective.meanKl());
                }
                metrics.put("probs_corr", objective.probsCorrelation());
                progress.gradientStep(Steps.finite(metrics));
            }
            adapters.writeStep(setup.model().id(), setup.nextStep(), trainer::save);
        }
        Map<String, Double> metrics = new TreeMap<>(SplitMetrics.aggregate("train", job.trajectoryGroups()));
        metrics.putAll(steps.summary());
        metrics.put("data/step_num_groups_submitted", (double) plan.groupsSubmitted());
        metrics.put("data/step_num_groups_trainable", (double) plan.groupsTrainable());
        metrics.put("data/step_num_trajectories", (double) job.trajectoryCount());
        metrics.put("time/step_trainer_s", (clock.millis() - started) / 1000.0);
        return new TrainingResult.Trained(metrics);
    }

    /** ART's truncated importance sampling: {@code min(exp(old - original), cap)} per token, when asked. */
    private static List<float[]> truncation(RlConfig config, List<RlSequence> row, List<float[]> originals) {
        if (config.truncatedImportanceSampling() == null || originals == null) {
            return null;
        }
        double cap = config.truncatedImportanceSampling();
        List<float[]> factors = new ArrayList<>(row.size());
        for (int i = 0; i < row.size(); i++) {
            float[] old = row.get(i).logprobs();
            float[] original = originals.get(i);
            float[] f = new float[old.length];
            for (int t = 0; t < old.length; t++) {
                f[t] = Float.isNaN(original[t]) ? 1f : (float) Math.min(Math.exp(old[t] - original[t]), cap);
            }
            factors.add(f);
        }
        return factors;
    }

    private static int distinctTrajectories(List<RlSequence> row) {
        Set<Integer> ids = new HashSet<>();
        row.forEach(s -> ids.add(s.trajectory()));
        return ids.size();
    }

    private static List<TrainingSequence> sequences(List<RlSequence> row) {
        return row.stream().map(RlSequence::sequence).toList();
    }

    /**
     * The reference policy of a KL penalty: the base model, or the adapter of a chosen step
     * ({@code kl_penalty_reference_step}, or the current step minus {@code kl_penalty_step_lag}).
     */
    private Reference reference(Setup setup, RlConfig config) {
        if (!(config.klPenaltyCoef() > 0)) {
            return null;
        }
        Integer step = config.klPenaltyReferenceStep() != null ? config.klPenaltyReferenceStep()
                : config.klPenaltyStepLag() != null ? Math.max(0, setup.nextStep() - 1 - config.klPenaltyStepLag())
                : null;
        if (step == null) {
            return new Reference(null);
        }
        if (!setup.steps().contains(step)) {
            throw new TrainingInputException("experimental_config.kl_penalty_reference_step: the model has no "
                    + "checkpoint at step " + step);
        }
        Optional<Path> folder = adapters.stepFolder(setup.model().id(), step);
        return new Reference(folder.isEmpty() ? null : setup.base().training().runner().newTrainer(new LoraTrainingSpec(
                settings.lora(), folder, settings.seed(), 0.9, 0.99, 1e-8, 0)));
    }

    /** Reference log-probabilities: from a fixed adapter when one is set, else from the base model. */
    private record Reference(LoraTrainer adapter) implements AutoCloseable {
        List<float[]> logprobs(LoraTrainer trained, List<TrainingSequence> row) {
            return adapter == null ? trained.logprobs(row, false) : adapter.logprobs(row, true);
        }

        @Override
        public void close() {
            if (adapter != null) {
                adapter.close();
            }
        }
    }

    private TrainingResult sft(Setup setup, JobSpec.Sft job, TrainingJob record, TrainingProgress progress) {
        SftConfig config = switch (SftConfig.resolve(job.config())) {
            case Outcome.Done<SftConfig> done -> done.value();
            case Outcome.Refused<SftConfig> refused -> throw new TrainingInputException(refused.refusal().message());
        };
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
                for (TokenizedTurns.Turns turns : tokenizer.tokenize(example)) {
                    batch.add(new TrainingSequence(turns.tokenIds(), turns.targets()));
                }
            }
            batches.add(batch);
        }
        Steps steps = new Steps();
        try (LoraTrainer trainer = trainer(setup, settings.sft())) {
            progress.started(batches.size(), Map.of("num_examples", examples.size()));
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
            adapters.writeStep(setup.model().id(), setup.nextStep(), trainer::save);
        }
        Map<String, Double> metrics = new TreeMap<>(steps.summary());
        metrics.put("data/step_num_trajectories", (double) examples.size());
        metrics.put("time/step_trainer_s", (clock.millis() - started) / 1000.0);
        return new TrainingResult.Trained(metrics);
    }

    /** Consecutive sequences of at most {@code microBatchTokens} tokens (a longer sequence goes alone). */
    private List<List<TrainingSequence>> microBatches(List<TrainingSequence> batch) {
        List<List<TrainingSequence>> out = new ArrayList<>();
        List<TrainingSequence> current = new ArrayList<>();
        int used = 0;
        for (TrainingSequence s : batch) {
            if (s.targetCount() == 0) {
                continue;
            }
            if (!current.isEmpty() && used + s.length() > settings.microBatchTokens()) {
                out.add(current);
                current = new ArrayList<>();
                used = 0;
            }
            current.add(s);
            used += s.length();
        }
        if (!current.isEmpty()) {
            out.add(current);
        }
        return out;
    }

    /** Each optimiser step's metrics, and their summary for the checkpoint. */
    private static final class Steps {
        private int count;
        private double lossSum;
        private double normSum;
        private long trainedTokens;

        Map<String, Number> record(double loss, double norm, double lr, TrainingBatchResult result,
                List<TrainingSequence> batch, long nanos) {
            long tokens = batch.stream().mapToLong(TrainingSequence::length).sum();
            long trained = batch.stream().mapToLong(TrainingSequence::targetCount).sum();
            double entropySum = 0;
            long entropyCount = 0;
            for (float[] e : result.entropies()) {
                for (float v : e) {
                    entropySum += v;
                    entropyCount++;
                }
            }
            double seconds = Math.max(1e-9, nanos / 1e9);
            count++;
            lossSum += loss;
            normSum += norm;
            trainedTokens += trained;
            Map<String, Number> metrics = new LinkedHashMap<>();
            metrics.put("gradient_step", count);
            metrics.put("loss", loss);
            if (Double.isFinite(norm)) {
                metrics.put("grad_norm", norm);
            } else {
                metrics.put("skipped_non_finite_gradient", 1);
            }
            metrics.put("learning_rate", lr);
            metrics.put("entropy", entropyCount == 0 ? 0.0 : entropySum / entropyCount);
            metrics.put("num_trainable_tokens", trained);
            metrics.put("num_tokens", tokens);
            metrics.put("tokens_per_second", tokens / seconds);
            metrics.put("trainable_tokens_per_second", trained / seconds);
            return finite(metrics);
        }

        /**
         * Leaves out what is not a finite number: event data is JSON, and ART's client turns every value into a
         * float, so NaN or infinity would break the client (a skipped update is flagged instead).
         */
        static Map<String, Number> finite(Map<String, Number> metrics) {
            metrics.values().removeIf(v -> !Double.isFinite(v.doubleValue()));
            return metrics;
        }

        Map<String, Double> summary() {
            Map<String, Double> out = new TreeMap<>();
            out.put("data/step_num_gradient_steps", (double) count);
            out.put("data/step_trainer_tokens", (double) trainedTokens);
            if (count > 0) {
                out.put("loss/train", lossSum / count);
                out.put("loss/grad_norm", normSum / count);
            }
            return out;
        }
    }
}
