package dev.crucible.application.job;

import static dev.crucible.application.fakes.Fixtures.ACME;
import static dev.crucible.application.fakes.Fixtures.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.application.fakes.FakeEngine;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.JobType;
import dev.crucible.domain.job.SftConfig;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.ModelId;
import dev.crucible.engine.spi.Capability;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UnavailableTrainerTest {

    private static final TrainingJob JOB = TrainingJob.queue(JobType.SFT, ModelId.random(), ACME, NOW);
    private static final JobSpec SPEC = new JobSpec.Sft("https://example.com/d.jsonl", SftConfig.defaults(), Map.of());

    private static TrainingResult train(UnavailableTrainer trainer) {
        return trainer.train(JOB, SPEC, null);
    }

    @Test
    void failsEveryJobSayingNoEngineIsInstalled() {
        assertEquals(new TrainingResult.Failed("training is not available on this server: no installed engine has the "
                + "TRAINING capability (installed engines: none)"), train(new UnavailableTrainer(List.of())));
    }

    @Test
    void failsEveryJobNamingTheInstalledEnginesAndTheirCapabilities() {
        UnavailableTrainer trainer = new UnavailableTrainer(List.of(
                FakeEngine.healthy("djl", Capability.LORA_INFERENCE, Capability.INFERENCE),
                FakeEngine.healthy("onnx")));
        assertEquals(new TrainingResult.Failed("training is not available on this server: no installed engine has the "
                + "TRAINING capability (installed engines: djl [INFERENCE, LORA_INFERENCE], onnx [])"), train(trainer));
    }
}
