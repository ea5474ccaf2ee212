package dev.crucible.adapters.persistence;

import dev.crucible.application.job.JobStore;
import dev.crucible.application.model.ModelStore;
import dev.crucible.application.process.ProcessIdentity;
import dev.crucible.application.process.ProcessRole;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.JobType;
import dev.crucible.domain.job.SftConfig;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelCoordinates;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.testsupport.database.TestDatabase;
import io.micronaut.context.ApplicationContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Map;
import org.flywaydb.core.Flyway;

/**
 * This module's beans over a fresh database of the test PostgreSQL ({@link TestDatabase}), without HTTP: the
 * datasource and Flyway settings are the server's ({@code server/src/main/resources/application.yml}), so
 * micronaut-flyway migrates the database when the datasource starts, exactly as {@code crucible serve} does. A store
 * is asked for by its application port, so the test goes through the transaction advice the server uses.
 */
public final class StoreContext implements AutoCloseable {

    /** The entity whose rows a test writes. */
    public static final EntityName ADA = new EntityName("ada");
    /** Another entity, which must see none of {@link #ADA}'s rows. */
    public static final EntityName BOB = new EntityName("bob");
    /** A fixed time for rows whose times a test sets. */
    public static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final ApplicationContext context;
    private final String url;

    private StoreContext(ApplicationContext context, String url) {
        this.context = context;
        this.url = url;
    }

    /**
     * A context over a fresh, migrated database, with its files under a fresh temporary data folder. The database is
     * a copy of one Flyway migrated once in this JVM with the server's settings (its defaults), so the context's own
     * Flyway only validates it (the server's ITs of {@code crucible serve} processes migrate empty databases).
     */
    public static StoreContext start() {
        String url = TestDatabase.freshCopyOf("migrated",
                template -> Flyway.configure().dataSource(template, TestDatabase.USER, "").load().migrate());
        Path dataDir;
        try {
            dataDir = Files.createTempDirectory("crucible-store-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ApplicationContext context = ApplicationContext.builder().properties(Map.of(
                "datasources.default.url", url,
                "datasources.default.username", TestDatabase.USER,
                "datasources.default.password", "",
                "datasources.default.driver-class-name", "org.postgresql.Driver",
                "datasources.default.dialect", "POSTGRES",
                "flyway.datasources.default.enabled", true,
                "crucible.data-dir", dataDir.toString()))
                .singletons(ProcessIdentity.start(ProcessRole.ALL)).start();
        return new StoreContext(context, url);
    }

    /** A new model of {@code entity} named {@code name}, stored with its step-0 checkpoint. */
    public Model model(String entity, String name) {
        Instant now = Instant.now();
        Model model = Model.create(new ModelCoordinates(new EntityName(entity), "p", name), "tiny-base", now);
        if (bean(ModelStore.class).insertUnlessExists(model, Checkpoint.initial(model.id(), now)).isPresent()) {
            throw new IllegalStateException("a model named " + name + " exists already");
        }
        return model;
    }

    /** A new SFT job queued on {@code model}. */
    public TrainingJob queuedJob(Model model) {
        TrainingJob job = TrainingJob.queue(JobType.SFT, model.id(), model.coordinates().entity(), Instant.now());
        bean(JobStore.class).enqueue(job, new JobSpec.Sft("https://example.com/d.jsonl", SftConfig.defaults(), Map.of()));
        return job;
    }

    /** The bean that implements {@code port}. */
    public <T> T bean(Class<T> port) {
        return context.getBean(port);
    }

    /** A connection of its own, outside the beans' pool and transactions (for a concurrent session). */
    public Connection connection() throws SQLException {
        return DriverManager.getConnection(url, TestDatabase.USER, "");
    }

    @Override
    public void close() {
        context.close();
    }
}
