package dev.crucible.server.wiring;

import dev.crucible.adapters.jsonschema.NetworkntSchemaValidator;
import dev.crucible.application.feedback.AnnotationQueueLookup;
import dev.crucible.application.feedback.AnnotationSpecLookup;
import dev.crucible.application.feedback.CreateFeedbackService;
import dev.crucible.application.feedback.FeedbackAdmission;
import dev.crucible.application.feedback.FeedbackStore;
import dev.crucible.application.dataset.DatasetLookup;
import dev.crucible.application.dataset.DatasetStore;
import dev.crucible.application.feedback.PurgeFeedbackService;
import dev.crucible.application.feedback.QueryFeedbackService;
import dev.crucible.application.feedback.ReplaceFeedbackService;
import dev.crucible.application.feedback.SpecLimits;
import dev.crucible.application.file.FileContents;
import dev.crucible.application.file.FileStore;
import dev.crucible.application.health.EngineProbes;
import dev.crucible.application.health.HealthService;
import dev.crucible.application.health.Probe;
import dev.crucible.application.health.ReadinessService;
import dev.crucible.application.health.SystemCheckService;
import dev.crucible.application.idempotency.IdempotencyStore;
import dev.crucible.application.idempotency.IdempotentRequestsService;
import dev.crucible.application.job.CreateJobService;
import dev.crucible.application.job.JobEventStore;
import dev.crucible.application.job.JobQueryService;
import dev.crucible.application.job.ListJobsService;
import dev.crucible.application.job.JobQueue;
import dev.crucible.application.job.JobRunner;
import dev.crucible.application.job.TrainingObserver;
import dev.crucible.application.job.JobRunnerLoop;
import dev.crucible.application.job.JobStore;
import dev.crucible.application.job.JobTrainer;
import dev.crucible.application.job.RunnerSettings;
import dev.crucible.application.job.SftDatasetLoader;
import dev.crucible.application.job.TrainingDataDownloads;
import dev.crucible.application.job.TrainingDataPolicy;
import dev.crucible.application.inference.serving.ServedAdapterCheck;
import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.application.model.AdapterCheck;
import dev.crucible.application.model.AdapterFiles;
import dev.crucible.application.model.BaseModelCatalog;
import dev.crucible.application.model.CheckpointStore;
import dev.crucible.application.model.CreateModelService;
import dev.crucible.application.model.DeleteCheckpointsService;
import dev.crucible.application.model.DeleteModelService;
import dev.crucible.application.model.ImportAdapterService;
import dev.crucible.application.model.ListCheckpointsService;
import dev.crucible.application.model.ListModelsService;
import dev.crucible.application.model.ListServedModelsService;
import dev.crucible.application.model.LogTrajectoriesService;
import dev.crucible.application.model.ModelStore;
import dev.crucible.application.model.ReadAdapterService;
import dev.crucible.application.model.TrajectoryLogStore;
import dev.crucible.application.tenancy.ApiKeyService;
import dev.crucible.application.tenancy.ApiKeyStore;
import dev.crucible.application.job.dataset.JsonLineParser;
import dev.crucible.application.job.dataset.SftDatasetLimits;
import dev.crucible.engine.spi.EngineProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the framework-free use cases with {@code new}, from the adapters' port implementations. */
@Factory
class UseCaseFactory {

    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }

    @Singleton
    List<EngineProvider> engines(CrucibleSettings settings) {
        return Engines.load(settings.engine());
    }

    @Singleton
    ApiKeyService apiKeys(ApiKeyStore store, Clock clock) {
        return new ApiKeyService(store, clock);
    }

    /** Keys of creating requests are kept {@code crucible.idempotency.retention} (24 hours, as Stripe keeps them). */
    @Singleton
    IdempotentRequestsService idempotentRequests(IdempotencyStore store, Clock clock, CrucibleSettings settings) {
        return new IdempotentRequestsService(store, clock, settings.idempotency().retention());
    }

    @Singleton
    CreateModelService createModel(ModelStore models, BaseModelCatalog baseModels, Clock clock) {
        return new CreateModelService(models, baseModels, clock);
    }

    @Singleton
    DeleteModelService deleteModel(ModelStore models, JobStore jobs, AdapterFiles adapters, Clock clock) {
        return new DeleteModelService(models, jobs, adapters, clock);
    }

    @Singleton
    ListCheckpointsService listCheckpoints(ModelStore models, CheckpointStore checkpoints) {
        return new ListCheckpointsService(models, checkpoints);
    }

    @Singleton
    ListModelsService listModels(ModelStore models) {
        return new ListModelsService(models);
    }

    @Singleton
    DeleteCheckpointsService deleteCheckpoints(ModelStore models, CheckpointStore checkpoints, AdapterFiles adapters) {
        return new DeleteCheckpointsService(models, checkpoints, adapters);
    }

    @Singleton
    ServedAdapterCheck adapterCheck(ServedModels served) {
        return new ServedAdapterCheck(served);
    }

    /** Each entity may store {@code crucible.adapters.max-per-entity} checkpoints; an import past it is a 413. */
    @Singleton
    ImportAdapterService importAdapter(ModelStore models, JobStore jobs, CheckpointStore checkpoints,
            AdapterFiles adapters, AdapterCheck check, Clock clock, StorageSettings.Adapters quota) {
        return new ImportAdapterService(models, jobs, checkpoints, adapters, check, quota.maxPerEntity(), clock);
    }

    @Singleton
    ReadAdapterService readAdapter(ModelStore models, CheckpointStore checkpoints, AdapterFiles adapters) {
        return new ReadAdapterService(models, checkpoints, adapters);
    }

    @Singleton
    LogTrajectoriesService logTrajectories(ModelStore models, TrajectoryLogStore logs) {
        return new LogTrajectoriesService(models, logs);
    }

    @Singleton
    ListServedModelsService servedModels(BaseModelCatalog baseModels, ModelStore models) {
        return new ListServedModelsService(baseModels, models);
    }

    /**
     * {@code file://} datasets only from {@code crucible.training-data.import-directory}, unset by default; the
     * entity's own {@code sft} datasets by id.
     */
    @Singleton
    TrainingDataPolicy trainingDataPolicy(CrucibleSettings settings, FileStore files, DatasetStore datasets) {
        return new TrainingDataPolicy(settings.trainingData().imports(), settings.dataDir(), files,
                DatasetLookup.of(datasets));
    }

    /** Each entity may have {@code crucible.jobs.max-queued-per-entity} jobs queued; one more is a 429. */
    @Singleton
    CreateJobService createJobs(ModelStore models, JobStore jobs, TrainingDataPolicy policy, Clock clock,
            CrucibleSettings settings) {
        return new CreateJobService(models, jobs, policy, settings.jobs().maxQueuedPerEntity(), clock);
    }

    /** Reads SFT datasets for the trainer; the bounds are {@code crucible.training-data.*}. */
    @Singleton
    SftDatasetLoader sftDatasets(TrainingDataPolicy policy, FileContents uploads, TrainingDataDownloads web,
            JsonLineParser parser, CrucibleSettings settings) {
        CrucibleSettings.TrainingData limits = settings.trainingData();
        return new SftDatasetLoader(policy, uploads, web, parser,
                new SftDatasetLimits(limits.maxExamples(), limits.maxBytes()));
    }

    @Singleton
    JobQueryService jobQueries(JobStore jobs, JobEventStore events) {
        return new JobQueryService(jobs, events);
    }

    @Singleton
    ListJobsService listJobs(JobStore jobs) {
        return new ListJobsService(jobs);
    }

    /** One for the process: its gauges hold the last value, and jobs and the primitives both report to them. */
    @Singleton
    TrainingObserver trainingObserver(MeterRegistry registry) {
        return new MeteredTrainingObserver(registry);
    }

    @Singleton
    JobRunner jobRunner(JobQueue queue, JobStore jobs, JobTrainer trainer, Clock clock, CrucibleSettings settings,
            TrainingObserver observer) {
        CrucibleSettings.Runner r = settings.runner();
        return new JobRunner(queue, jobs, trainer, clock,
                new RunnerSettings(r.pollInterval(), r.heartbeatInterval(), r.staleAfter()), observer);
    }

    @Singleton
    @Bean(preDestroy = "close")
    JobRunnerLoop jobRunnerLoop(JobRunner runner, CrucibleSettings settings) {
        return new JobRunnerLoop(runner, settings.runner().pollInterval());
    }

    /** Crucible keeps no annotation queues, so every queue id is unknown (Weave's "not found" refusal). */
    @Singleton
    AnnotationQueueLookup annotationQueues() {
        return (project, queueId) -> false;
    }

    /** What creating and replacing feedback both check before writing. */
    @Singleton
    FeedbackAdmission feedbackAdmission(AnnotationSpecLookup specs, AnnotationQueueLookup queues, Clock clock,
            SpecLimits specLimits) {
        return new FeedbackAdmission(specs, new NetworkntSchemaValidator(), queues, clock, specLimits);
    }

    @Singleton
    CreateFeedbackService createFeedback(FeedbackStore store, FeedbackAdmission admission) {
        return new CreateFeedbackService(store, admission);
    }

    @Singleton
    ReplaceFeedbackService replaceFeedback(FeedbackStore store, FeedbackAdmission admission) {
        return new ReplaceFeedbackService(store, admission);
    }

    @Singleton
    QueryFeedbackService queryFeedback(FeedbackStore store) {
        return new QueryFeedbackService(store);
    }

    @Singleton
    PurgeFeedbackService purgeFeedback(FeedbackStore store) {
        return new PurgeFeedbackService(store);
    }

    @Singleton
    HealthService health(ServedModels served) {
        return new HealthService(served);
    }

    @Singleton
    SystemCheckService systemCheck(@Named("database") Probe database, @Named("storage") Probe storage,
            JobRunnerLoop loop, CrucibleSettings settings, List<EngineProvider> engines, HealthService health) {
        Map<String, Probe> probes = new LinkedHashMap<>();
        probes.put("api", () -> { });
        probes.put("database", database);
        probes.put("storage", storage);
        probes.put("cpu_queue", () -> {
            if (settings.runsJobs() && !loop.alive()) {
                throw new IllegalStateException("the training-job runner is not running");
            }
        });
        probes.put("gpu_queue", EngineProbes.inference(engines));
        probes.put("engines", EngineProbes.all(engines));
        probes.put("models", health.probe());
        return new SystemCheckService(probes);
    }

    /** Ready while the database answers: nearly every route needs it, and an outage passes (a restart, a failover). */
    @Singleton
    ReadinessService readiness(@Named("database") Probe database) {
        return new ReadinessService(Map.of("database", database));
    }
}
