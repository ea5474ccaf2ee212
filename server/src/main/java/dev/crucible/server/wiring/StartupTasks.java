package dev.crucible.server.wiring;

import dev.crucible.application.inference.serving.ModelSupervisor;
import dev.crucible.application.inference.serving.ServedModels;
import dev.crucible.application.job.JobRunnerLoop;
import dev.crucible.application.process.CatalogFollower;
import dev.crucible.application.tenancy.IssueApiKeyUseCase;
import dev.crucible.domain.tenancy.ApiKeySecret;
import dev.crucible.domain.tenancy.EntityName;
import io.micronaut.context.event.StartupEvent;
import io.micronaut.runtime.event.annotation.EventListener;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When the context has started, before the HTTP server listens: registers the configured API key
 * ({@code CRUCIBLE_API_KEY}, as {@code crucible.bootstrap.api-key}) if it is not yet known, so that the first request
 * a client sends once {@code /v1/health} answers can use it; starts this process's heartbeat, which fails the training
 * operations of processes that stopped ({@link ProcessHeartbeat}). Once the HTTP server is up: follows the catalog
 * changes of every process when this one serves the API ({@link CatalogFollower}), and starts the job runner when its
 * role runs jobs.
 * Command-line tools never set the key nor start a server, so they do neither.
 */
@Singleton
class StartupTasks {

    private static final Logger LOG = LoggerFactory.getLogger(StartupTasks.class);

    private final JobRunnerLoop runner;
    private final ModelSupervisor supervisor;
    private final CrucibleSettings settings;

    private final IssueApiKeyUseCase keys;
    private final ProcessHeartbeat heartbeat;
    private final CatalogFollower catalog;
    private final ProcessSettings.Bootstrap bootstrap;

    /** Taking the served models here loads them when the server starts, not on the first request. */
    StartupTasks(JobRunnerLoop runner, CrucibleSettings settings, IssueApiKeyUseCase keys, ServedModels models,
            ModelSupervisor supervisor, ProcessHeartbeat heartbeat, CatalogFollower catalog,
            ProcessSettings.Bootstrap bootstrap) {
        this.runner = runner;
        this.supervisor = supervisor;
        this.settings = settings;
        this.keys = keys;
        this.heartbeat = heartbeat;
        this.catalog = catalog;
        this.bootstrap = bootstrap;
        LOG.info("Serving base models: {}", models.names());
    }

    @EventListener
    void onContextStarted(StartupEvent event) {
        heartbeat.start();
        if (bootstrap.hasKey()) {
            keys.register(new EntityName(bootstrap.entity()), new ApiKeySecret(bootstrap.apiKey()));
            LOG.info("Configured API key registered for entity {}", bootstrap.entity());
        }
    }

    @EventListener
    void onServerStarted(ServerStartupEvent event) {
        supervisor.start();
        if (settings.processRole().servesApi()) {
            catalog.start();
        }
        if (settings.runsJobs()) {
            runner.start();
            LOG.info("Job runner started (role {})", settings.processRole().wireName());
        } else {
            LOG.info("Job runner off in this process (role {}, crucible.runner.enabled={})",
                    settings.processRole().wireName(), settings.runner().enabled());
        }
    }
}
