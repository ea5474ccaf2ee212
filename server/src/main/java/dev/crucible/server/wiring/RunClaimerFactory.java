package dev.crucible.server.wiring;

import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.application.job.TrainingObserver;
import dev.crucible.application.model.AdapterFiles;
import dev.crucible.application.model.CheckpointStore;
import dev.crucible.application.primitives.LiveRuns;
import dev.crucible.application.primitives.OperationLog;
import dev.crucible.application.primitives.OperationSignals;
import dev.crucible.application.primitives.PrimitiveLimits;
import dev.crucible.application.primitives.PrimitiveStore;
import dev.crucible.application.primitives.RunClaimer;
import dev.crucible.application.primitives.RunLeases;
import dev.crucible.application.process.ProcessIdentity;
import dev.crucible.application.usage.UsageRecorder;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import java.time.Clock;

/**
 * A worker's claims of Tinker runs queued by api processes ({@link RunClaimer}): at most
 * {@code crucible.primitives.max-runs} runs, leases of {@code crucible.primitives.run-lease} (15 s: how long a killed
 * worker's runs wait for another), new operations looked for every {@code crucible.primitives.claim-poll-interval}.
 * Started with the HTTP server on a {@code worker} process only ({@link RunClaimerStart}); closed (its runs given
 * back) when the context stops.
 */
@Factory
class RunClaimerFactory {

    @Singleton
    @Bean(preDestroy = "close")
    RunClaimer runClaimer(RunLeases leases, LiveRuns live, ServedModels served, PrimitiveStore store, OperationLog log,
            OperationSignals signals, CheckpointStore checkpoints, AdapterFiles adapters, PrimitiveLimits limits,
            UsageRecorder usage, TrainingObserver observer, ProcessIdentity self, PrimitiveSettings settings,
            Clock clock) {
        return new RunClaimer(leases, live, served, store, log, signals, checkpoints, adapters, limits, usage,
                observer, self.id(), settings.maxRuns(), settings.runLease(), settings.claimPollInterval(), clock);
    }
}
