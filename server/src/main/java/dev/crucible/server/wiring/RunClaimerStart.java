package dev.crucible.server.wiring;

import dev.crucible.application.primitives.RunClaimer;
import dev.crucible.application.process.ProcessIdentity;
import io.micronaut.runtime.event.annotation.EventListener;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import jakarta.inject.Provider;
import jakarta.inject.Singleton;

/** Starts the worker's claims of Tinker runs ({@link RunClaimer}) once the server is up, on a worker only. */
@Singleton
class RunClaimerStart {

    private final ProcessIdentity self;
    private final Provider<RunClaimer> claimer;

    RunClaimerStart(ProcessIdentity self, Provider<RunClaimer> claimer) {
        this.self = self;
        this.claimer = claimer;
    }

    @EventListener
    void onServerStarted(ServerStartupEvent event) {
        if (self.role().claimsRuns()) {
            claimer.get().start();
        }
    }
}
