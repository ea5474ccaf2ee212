package dev.crucible.server.wiring;

import dev.crucible.application.process.ProcessRole;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;

/** This process among several on one database: its role ({@code crucible.role}). */
@Factory
class ProcessFactory {

    @Singleton
    ProcessRole processRole(CrucibleSettings settings) {
        return settings.processRole();
    }
}
