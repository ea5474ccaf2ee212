package dev.crucible.application.fakes;

import dev.crucible.application.job.JobTrainer;
import dev.crucible.application.job.TrainingProgress;
import dev.crucible.application.job.TrainingResult;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.TrainingJob;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A trainer that runs a test's script and records each call. */
public final class ScriptedTrainer implements JobTrainer {

    /** One call of {@link #train}. */
    public record Call(TrainingJob job, JobSpec spec) {
    }

    private final JobTrainer script;
    private final List<Call> calls = new CopyOnWriteArrayList<>();

    public ScriptedTrainer(JobTrainer script) {
        this.script = script;
    }

    public static ScriptedTrainer returning(TrainingResult result) {
        return new ScriptedTrainer((job, spec, progress) -> result);
    }

    public List<Call> calls() {
        return List.copyOf(calls);
    }

    @Override
    public TrainingResult train(TrainingJob job, JobSpec spec, TrainingProgress progress) {
        calls.add(new Call(job, spec));
        return script.train(job, spec, progress);
    }
}
