package dev.crucible.application.training;

import dev.crucible.application.job.TrainingProgress;
import dev.crucible.application.job.TrainingResult;
import dev.crucible.application.model.AdapterFiles;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.RlConfig;
import dev.crucible.domain.trajectory.SplitMetrics;
import dev.crucible.engine.spi.LoraTrainer;
import dev.crucible.engine.spi.TrainingBatchResult;
import dev.crucible.engine.spi.TrainingSequence;
import dev.crucible.runtime.training.LogprobDrift;
import dev.crucible.runtime.training.PolicyLoss;
import dev.crucible.runtime.training.PolicyObjective;
import dev.crucible.runtime.training.RlPlan;
import dev.crucible.runtime.training.RlSequence;
import dev.crucible.runtime.training.TrajectoryTokenizer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * An RL job: one optimiser step per packed row of trajectories ({@link RlPlan}, {@link PolicyObjective}), with ART's
 * options (recomputed old log-probabilities, truncated importance sampling, a KL penalty against a
 * {@link ReferencePolicy}). Each step also measures how far the trainer's log-probabilities are from the sampler's
 * ({@link LogprobDrift}), reports it in its event, and fails the job above {@code max_logprob_drift}, before its
 * update. Kept apart from SFT because the two share only the adapter and the step metrics.
 */
record RlTraining(AdapterFiles adapters, TrainingSettings settings, Clock clock) {

    TrainingResult train(TrainingSetup setup, JobSpec.Rl job, TrainingProgress progress) {
        RlConfig config = job.config();
        long started = clock.millis();
        RlPlan plan = RlPlan.of(RlInputs.groups(job.trajectoryGroups()), config.normalizeAdvantages(),
                config.advantageBalance(), new TrajectoryTokenizer(setup.tokens(), config.allowTrainingWithoutLogprobs()),
                setup.tokens().maxLength());
        PolicyLoss loss = RlInputs.loss(config);
        StepMetrics steps = new StepMetrics();
        try (LoraTrainer trainer = setup.newTrainer(settings, settings.rl());
                ReferencePolicy reference = ReferencePolicy.of(setup, config, adapters, settings)) {
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
                PolicyObjective objective = new PolicyObjective(row, loss, ref,
                        truncation(config, row, originals == null ? null : originals.get(r)));
                TrainingBatchResult result = trainer.accumulate(batch, objective);
                // the sampler's own log-probabilities, also when precalculate_logprobs replaced them for the loss
                Optional<LogprobDrift> drift = LogprobDrift.measure(result.logprobs(),
                        originals == null ? row.stream().map(RlSequence::logprobs).toList() : originals.get(r));
                if (drift.isPresent() && config.maxLogprobDrift() != null
                        && drift.get().exceeds(config.maxLogprobDrift())) {
                    progress.samplerDrift(drift.get());
                    return new TrainingResult.Failed("gradient step " + (r + 1) + " of " + rows.size() + ": "
                            + drift.get().describe(config.maxLogprobDrift(),
                                    RlConfig.PARAM + "." + RlConfig.MAX_LOGPROB_DRIFT));
                }
                double lr = config.learningRate() * Math.pow(distinctTrajectories(row), config.lrTrajectoryPower());
                double norm = trainer.step(lr, settings.rl().maxGradNorm());
                Map<String, Number> metrics = steps.record(result.loss(), norm, lr, result, batch,
                        System.nanoTime() - stepStart);
                metrics.put("policy_loss", result.loss());
                if (reference != null) {
                    metrics.put("kl_policy_ref", objective.meanKl());
                }
                metrics.put("probs_corr", objective.probsCorrelation());
                drift.ifPresent(d -> metrics.putAll(d.eventMetrics()));
                progress.gradientStep(StepMetrics.finite(metrics));
                drift.ifPresent(progress::samplerDrift);
            }
            adapters.writeStep(setup.model().id(), setup.step(), trainer::save);
        }
        Map<String, Double> metrics = new TreeMap<>(SplitMetrics.aggregate("train", job.trajectoryGroups()));
        metrics.putAll(steps.summary());
        metrics.put("data/step_num_groups_submitted", (double) plan.groupsSubmitted());
        metrics.put("data/step_num_groups_trainable", (double) plan.groupsTrainable());
        metrics.put("data/step_num_trajectories", (double) job.trajectoryCount());
        metrics.put("time/step_trainer_s", (clock.millis() - started) / 1000.0);
        return new TrainingResult.Trained(setup.step(), metrics);
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
}
