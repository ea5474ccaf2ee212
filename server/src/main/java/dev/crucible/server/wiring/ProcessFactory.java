package dev.crucible.server.wiring;

import dev.crucible.application.blob.BlobAdapterFiles;
import dev.crucible.application.inference.serving.AdapterCache;
import dev.crucible.application.inference.serving.ServedAdapterEviction;
import dev.crucible.application.primitives.OperationLog;
import dev.crucible.application.primitives.OperationRecovery;
import dev.crucible.application.process.CatalogChange;
import dev.crucible.application.process.CatalogChanges;
import dev.crucible.application.process.CatalogFollower;
import dev.crucible.application.process.ProcessIdentity;
import dev.crucible.application.process.ProcessRegistry;
import dev.crucible.application.process.ProcessRole;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.function.Consumer;

/**
 * This process among several on one database: its role ({@code crucible.role}), its identity, and its heartbeat
 * ({@code crucible.process.heartbeat-interval}; a process silent for {@code crucible.process.stale-after} is dead and
 * its pending training operations are failed by the others), and what it follows of the others: catalog changes.
 */
@Factory
class ProcessFactory {

    @Singleton
    ProcessRole processRole(CrucibleSettings settings) {
        return settings.processRole();
    }

    @Singleton
    ProcessIdentity processIdentity(ProcessRole role) {
        return ProcessIdentity.start(role);
    }

    @Singleton
    OperationRecovery operationRecovery(OperationLog log, ProcessRegistry processes, ProcessIdentity self,
            ProcessSettings.Liveness liveness, Clock clock) {
        return new OperationRecovery(log, processes, self, liveness.staleAfter(), clock);
    }

    /**
     * Follows the catalog changes of every process on the database ({@code crucible.catalog.poll-interval} bounds how
     * late one arrives when a notification is lost) and drops the loaded adapters and remembered manifests of deleted
     * checkpoints.
     */
    @Singleton
    @Bean(preDestroy = "close")
    CatalogFollower catalogFollower(CatalogChanges changes, AdapterCache adapters, BlobAdapterFiles files,
            ProcessSettings.Catalog catalog, Clock clock) {
        Consumer<CatalogChange> forgetManifests = change -> {
            if (change.removal()) {
                files.forget(change.model(), change.step());
            }
        };
        return new CatalogFollower(changes, new ServedAdapterEviction(adapters).andThen(forgetManifests),
                catalog.pollInterval(), clock);
    }

    @Singleton
    @Bean(preDestroy = "close")
    ProcessHeartbeat processHeartbeat(OperationRecovery recovery, ProcessSettings.Liveness liveness) {
        return new ProcessHeartbeat(recovery, liveness.heartbeatInterval());
    }
}
