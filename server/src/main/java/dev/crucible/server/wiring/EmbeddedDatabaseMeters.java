package dev.crucible.server.wiring;

import dev.crucible.server.database.EmbeddedDatabase;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

/**
 * {@code crucible_database_restarts_total}: how many times the embedded PostgreSQL died and was started again by this
 * process. Only where this process runs the embedded database; an external database's outages show in the 503s and
 * the connection pool's meters.
 */
@Singleton
@Requires(beans = EmbeddedDatabase.class)
final class EmbeddedDatabaseMeters implements MeterBinder {

    private final EmbeddedDatabase database;

    EmbeddedDatabaseMeters(EmbeddedDatabase database) {
        this.database = database;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        FunctionCounter.builder("crucible.database.restarts", database, EmbeddedDatabase::restarts)
                .description("Times the embedded PostgreSQL died and was restarted").register(registry);
    }
}
