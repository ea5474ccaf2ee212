package dev.crucible.server.wiring;

import dev.crucible.application.job.JobRunnerLoop;
import io.micronaut.runtime.event.annotation.EventListener;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Starts the job runner once the HTTP server is up (command-line tools never start it). */
@Singleton
class StartupTasks {

    private static final Logger LOG = LoggerFactory.getLogger(StartupTasks.class);

    private final JobRunnerLoop runner;
    private final CrucibleSettings settings;

    StartupTasks(JobRunnerLoop runner, CrucibleSettings settings) {
        this.runner = runner;
        this.settings = settings;
    }

    @EventListener
    void onServerStarted(ServerStartupEvent event) {
        if (settings.runner().enabled()) {
            runner.start();
            LOG.info("Job runner started");
        } else {
            LOG.info("Job runner disabled in this process (crucible.runner.enabled=false)");
        }
    }
}
