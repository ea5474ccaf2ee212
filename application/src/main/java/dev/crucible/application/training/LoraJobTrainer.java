package dev.crucible.application.training;

import dev.crucible.application.inference.serving.ServedModel;
import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.application.job.JobTrainer;
import dev.crucible.application.job.TrainingProgress;
import dev.crucible.application.job.TrainingResult;
import dev.crucible.application.model.AdapterFiles;
import dev.crucible.application.model.CheckpointStore;
import dev.crucible.application.model.ModelStore;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.CheckpointSteps;
import dev.crucible.domain.model.Model;
import dev.crucible.engine.spi.EngineException;
import dev.crucible.runtime.training.TrainingInputException;
import dev.crucible.runtime.training.TrainingModel;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;

/**
 * Trains a job's LoRA adapter on the served base model's training runner (the serving engine's, or the model in an
 * engine that can train when the serving one cannot), continuing from the model's latest checkpoint. The step the
 * adapter is stored under is decided here once, from the model's {@link CheckpointSteps} when the job starts, and
 * travels with the {@link TrainingResult.Trained} result to the runner, which records that very step. RL jobs are
 * trained by {@link RlTraining}, SFT jobs by {@link SftTraining}. A job with nothing to train still stores the
 * adapter unchanged, so the step advances as ART expects. Bad input fails the job with a message that says where.
 */
public final class LoraJobTrainer implements JobTrainer {

    private final ModelStore models;
    private final CheckpointStore checkpoints;
    private final AdapterFiles adapters;
    private final ServedModels served;
    private final RlTraining rl;
    private final SftTraining sft;

    public LoraJobTrainer(ModelStore models, CheckpointStore checkpoints, AdapterFiles adapters, ServedModels served,
            SftDataSource sftData, TrainingSettings settings, Clock clock) {
        this.models = Objects.requireNonNull(models, "models");
        this.checkpoints = Objects.requireNonNull(checkpoints, "checkpoints");
        this.adapters = Objects.requireNonNull(adapters, "adapters");
        this.served = Objects.requireNonNull(served, "served");
        this.rl = new RlTraining(adapters, settings, clock);
        this.sft = new SftTraining(adapters, sftData, settings, clock);
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
        CheckpointSteps steps = CheckpointSteps.of(checkpoints.steps(model.get().id()));
        TrainingSetup setup = new TrainingSetup(model.get(), base.get(), new TrainingModel(base.get().tokenizer(),
                base.get().chatTemplate().get(), base.get().specialTokens(), base.get().maxModelLen(),
                base.get().runner().vocabSize()), steps,
                steps.next(), steps.latest().flatMap(latest -> adapters.stepFolder(model.get().id(), latest)));
        try {
            return switch (spec) {
                case JobSpec.Rl r -> rl.train(setup, r, progress);
                case JobSpec.Sft s -> sft.train(setup, s, job, progress);
            };
        } catch (TrainingInputException e) {
            return new TrainingResult.Failed(e.getMessage());
        } catch (EngineException e) {
            return new TrainingResult.Failed("training failed in the engine: " + e.getMessage());
        }
    }
}
