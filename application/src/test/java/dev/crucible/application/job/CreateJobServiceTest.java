package dev.crucible.application.job;

import static dev.crucible.application.fakes.Fixtures.ACME;
import static dev.crucible.application.fakes.Fixtures.ACME_CALLER;
import static dev.crucible.application.fakes.Fixtures.CLOCK;
import static dev.crucible.application.fakes.Fixtures.GLOBEX_CALLER;
import static dev.crucible.application.fakes.Fixtures.NOW;
import static dev.crucible.application.fakes.Fixtures.group;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.fakes.Fixtures;
import dev.crucible.application.fakes.InMemoryCheckpointStore;
import dev.crucible.application.fakes.InMemoryFileStore;
import dev.crucible.application.fakes.InMemoryJobStore;
import dev.crucible.application.fakes.InMemoryModelStore;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.file.FileId;
import dev.crucible.domain.file.FilePurpose;
import dev.crucible.domain.file.StoredFile;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.JobStatus;
import dev.crucible.domain.job.JobType;
import dev.crucible.domain.job.RlConfig;
import dev.crucible.domain.job.SftConfig;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.trajectory.TrajectoryGroup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CreateJobServiceTest {

    private static final List<TrajectoryGroup> GROUPS = List.of(group(1, 0), group(0.5, 0.5));

    @TempDir
    Path imports;

    private final InMemoryModelStore models = new InMemoryModelStore(new InMemoryCheckpointStore());
    private final InMemoryJobStore jobs = new InMemoryJobStore();
    private final InMemoryFileStore files = new InMemoryFileStore();
    private final Model model = models.add(Fixtures.model(ACME, "agent", 0));
    private CreateJobService service;
    private String datasetUrl;

    @BeforeEach
    void setUp() throws IOException {
        service = new CreateJobService(models, jobs, new TrainingDataPolicy(Optional.of(imports), imports.resolveSibling("server-data"), files), 3, CLOCK);
        datasetUrl = Files.writeString(imports.resolve("train.jsonl"), "{}\n").toUri().toString();
    }

    private static RlConfig rlConfig(Map<String, Object> experimental) {
        return ((Outcome.Done<RlConfig>) RlConfig.resolve(experimental)).value();
    }

    private static SftConfig sftConfig(Map<String, Object> config) {
        return ((Outcome.Done<SftConfig>) SftConfig.resolve(config)).value();
    }

    private Outcome<TrainingJob> rl(Caller caller, ModelId modelId, List<TrajectoryGroup> groups, RlConfig config) {
        return service.create(new CreateRlJobUseCase.Command(caller, modelId, groups, config));
    }

    private Outcome<TrainingJob> rl(Caller caller, ModelId modelId, List<TrajectoryGroup> groups) {
        return rl(caller, modelId, groups, RlConfig.defaults());
    }

    private Outcome<TrainingJob> sft(Caller caller, ModelId modelId, String url, SftConfig config,
            Map<String, Object> experimental) {
        return service.create(new CreateSftJobUseCase.Command(caller, modelId, url, config, experimental));
    }

    private Outcome<TrainingJob> sft(Caller caller, ModelId modelId, String url) {
        return sft(caller, modelId, url, SftConfig.defaults(), Map.of());
    }

    @Test
    void queuesAnRlJobWithItsInput() {
        RlConfig config = rlConfig(Map.of("learning_rate", 1e-5));
        TrainingJob job = value(rl(ACME_CALLER, model.id(), GROUPS, config));

        assertEquals(new TrainingJob(job.id(), JobType.RL, model.id(), ACME, new JobStatus.Queued(), NOW), job);
        assertEquals(List.of(job), jobs.all());
        assertEquals(new JobSpec.Rl(GROUPS, config), jobs.specs().get(job.id()));
    }

    @Test
    void anEntityWithItsMostJobsQueuedIsRefused429AndNothingIsQueuedWhileAnotherEntityQueues() {
        for (int i = 0; i < 3; i++) {
            value(rl(ACME_CALLER, model.id(), GROUPS));
        }
        Outcome<TrainingJob> refused = rl(ACME_CALLER, model.id(), GROUPS);
        String message = assertRefused(refused, Refusal.Reason.OVERLOADED, null);
        assertTrue(message.contains("already has 3 training jobs queued")
                && message.contains("crucible.jobs.max-queued-per-entity"), message);
        assertTrue(((Outcome.Refused<TrainingJob>) refused).refusal().retryAfter().isPresent());
        assertEquals(3L, jobs.countByStatus().get("QUEUED"));

        Model other = models.add(Fixtures.model(dev.crucible.application.fakes.Fixtures.GLOBEX, "other", 0));
        value(rl(GLOBEX_CALLER, other.id(), GROUPS));
    }

    @Test
    void emptyTrajectoryGroupsAreRefused() {
        String message = assertRefused(rl(ACME_CALLER, model.id(), List.of()), Refusal.Reason.INVALID,
                "trajectory_groups");
        assertEquals("trajectory_groups must not be empty", message);
        assertEquals(List.of(), jobs.all());
    }

    @Test
    void anRlJobForAnUnknownOrForeignModelIsNotFound() {
        assertRefused(rl(ACME_CALLER, ModelId.random(), GROUPS), Refusal.Reason.NOT_FOUND, "model_id");
        assertRefused(rl(GLOBEX_CALLER, model.id(), GROUPS), Refusal.Reason.NOT_FOUND, "model_id");
        assertEquals(List.of(), jobs.all());
    }

    @Test
    void queuesAnSftJobWithTheNormalisedUrlAndItsConfigs() {
        TrainingJob job = value(sft(ACME_CALLER, model.id(), "file://" + imports + "/./train.jsonl",
                sftConfig(Map.of("batch_size", 4)), Map.of("seed", 7)));

        assertEquals(new TrainingJob(job.id(), JobType.SFT, model.id(), ACME, new JobStatus.Queued(), NOW), job);
        assertEquals(new JobSpec.Sft(datasetUrl, sftConfig(Map.of("batch_size", 4)), Map.of("seed", 7)), jobs.specs().get(job.id()));
    }

    @Test
    void aNullSftExperimentalConfigIsStoredEmpty() {
        TrainingJob job = value(sft(ACME_CALLER, model.id(), "https://example.com/t.jsonl", SftConfig.defaults(), null));
        assertEquals(new JobSpec.Sft("https://example.com/t.jsonl", SftConfig.defaults(), Map.of()), jobs.specs().get(job.id()));
    }

    @Test
    void anSftUrlOutsideThePolicyIsRefused() {
        assertRefused(sft(ACME_CALLER, model.id(), "file:///etc/passwd"), Refusal.Reason.INVALID,
                "training_data_url");
        assertRefused(sft(ACME_CALLER, model.id(), "s3://bucket/t.jsonl"), Refusal.Reason.INVALID,
                "training_data_url");
        assertEquals(List.of(), jobs.all());
    }

    @Test
    void anSftJobTakesTheIdOfAFileTheEntityUploaded() {
        StoredFile file = new StoredFile(FileId.random(), ACME, "train.jsonl", FilePurpose.FINE_TUNE, 3, NOW);
        files.insert(file);
        TrainingJob job = value(sft(ACME_CALLER, model.id(), file.id().toString()));
        assertEquals(new JobSpec.Sft(file.id().toString(), SftConfig.defaults(), Map.of()), jobs.specs().get(job.id()));
        assertRefused(sft(ACME_CALLER, model.id(), FileId.random().toString()),
                Refusal.Reason.NOT_FOUND, "training_data_url");
        assertEquals(1, jobs.all().size());
    }

    @Test
    void anSftJobForAForeignModelIsNotFound() {
        assertRefused(sft(GLOBEX_CALLER, model.id(), datasetUrl), Refusal.Reason.NOT_FOUND, "model_id");
        assertEquals(List.of(), jobs.all());
    }
}
