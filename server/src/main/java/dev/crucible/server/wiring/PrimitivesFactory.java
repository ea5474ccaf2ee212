package dev.crucible.server.wiring;

import dev.crucible.application.inference.serving.AdapterCache;
import dev.crucible.application.job.TrainingObserver;
import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.application.model.AdapterFiles;
import dev.crucible.application.model.CheckpointStore;
import dev.crucible.application.primitives.ClientSessionsService;
import dev.crucible.application.usage.UsageRecorder;
import dev.crucible.application.primitives.CreateRunService;
import dev.crucible.application.primitives.LiveRuns;
import dev.crucible.application.primitives.OperationLog;
import dev.crucible.application.primitives.OperationSignals;
import dev.crucible.application.primitives.PrimitiveLimits;
import dev.crucible.application.primitives.PrimitiveStore;
import dev.crucible.application.primitives.RetrieveFutureService;
import dev.crucible.application.primitives.RunInfoService;
import dev.crucible.application.primitives.SampleService;
import dev.crucible.application.primitives.SamplersService;
import dev.crucible.application.primitives.ServerCapabilitiesService;
import dev.crucible.application.primitives.RunLeases;
import dev.crucible.application.primitives.SubmitRunOperationService;
import dev.crucible.application.process.ProcessRole;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.Optional;

/**
 * The training primitives (the Tinker API): the operation log's services, the live runs with their bounds
 * ({@link PrimitiveSettings}), and the restart rule run on start ({@link StartupTasks}).
 */
@Factory
class PrimitivesFactory {

    @Singleton
    PrimitiveLimits primitiveLimits(PrimitiveSettings settings) {
        return settings.limits();
    }

    @Singleton
    OperationSignals operationSignals() {
        return new OperationSignals();
    }

    @Singleton
    @Bean(preDestroy = "close")
    LiveRuns liveRuns(PrimitiveSettings settings) {
        return new LiveRuns(settings.maxRunsPerEntity(), settings.maxRuns());
    }

    @Singleton
    RetrieveFutureService retrieveFuture(OperationLog log, OperationSignals signals, PrimitiveLimits limits) {
        return new RetrieveFutureService(log, signals, limits.longPoll());
    }

    @Singleton
    CreateRunService createRun(PrimitiveStore store, OperationLog log, OperationSignals signals, LiveRuns live,
            ServedModels served, PrimitiveLimits limits, Clock clock, ProcessRole role) {
        return new CreateRunService(store, log, signals, live, served, limits, clock, !role.holdsRunsItself());
    }

    @Singleton
    SubmitRunOperationService submitRunOperation(PrimitiveStore store, OperationLog log, OperationSignals signals,
            LiveRuns live, ServedModels served, CheckpointStore checkpoints, AdapterFiles adapters,
            PrimitiveLimits limits, UsageRecorder usage, TrainingObserver observer, Clock clock, ProcessRole role,
            RunLeases leases) {
        // An api process only queues a run's operations, for the worker that owns the run (RunClaimerFactory).
        return new SubmitRunOperationService(store, log, signals, live, served, checkpoints, adapters, limits, usage,
                observer, clock, role.holdsRunsItself() ? Optional.empty() : Optional.of(leases));
    }

    @Singleton
    ClientSessionsService clientSessions(PrimitiveStore store, Clock clock) {
        return new ClientSessionsService(store, clock);
    }

    @Singleton
    RunInfoService runInfo(PrimitiveStore store, ServedModels served) {
        return new RunInfoService(store, served);
    }

    @Singleton
    @Bean(preDestroy = "close")
    SampleService sample(PrimitiveStore store, OperationLog log, OperationSignals signals, ServedModels served,
            AdapterFiles adapters, AdapterCache cache, PrimitiveLimits limits, UsageRecorder usage, Clock clock) {
        return new SampleService(store, log, signals, served, adapters, cache, limits, usage, clock);
    }

    @Singleton
    SamplersService samplers(PrimitiveStore store, ServedModels served, Clock clock) {
        return new SamplersService(store, served, clock);
    }

    @Singleton
    ServerCapabilitiesService serverCapabilities(ServedModels served) {
        return new ServerCapabilitiesService(served);
    }
}
