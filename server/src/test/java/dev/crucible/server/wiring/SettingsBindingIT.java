package dev.crucible.server.wiring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.crucible.server.support.TestServer;
import io.micronaut.context.ApplicationContext;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The settings records bound from {@code application.yml}: each default as it was when the factories wrote it, and a
 * setting of each group overridden as {@code -D} or the launcher sets it.
 */
class SettingsBindingIT {

    @Test
    void everyGroupBindsItsDefaultsFromApplicationYml() {
        Map<String, Object> props = new HashMap<>(TestServer.properties(TestServer.migratedDatabase(),
                TestServer.newDataDir()));
        // the fixture shortens the heartbeat for the ITs; here the defaults are asked for
        props.remove("crucible.process.heartbeat-interval");
        props.remove("crucible.process.stale-after");
        try (ApplicationContext context = ApplicationContext.builder().properties(props).environments("test")
                .start()) {
            StorageSettings storage = context.getBean(StorageSettings.class);
            assertEquals("local", storage.blob().store());
            assertEquals(10737418240L, storage.blob().adapterCacheBytes());
            assertEquals(Duration.ofMinutes(10), storage.blob().collectGrace());
            assertEquals(Duration.ofMinutes(10), storage.blob().sweepInterval());
            assertEquals(Optional.empty(), storage.blob().s3().endpointUri());
            assertEquals("us-east-1", storage.blob().s3().region());
            assertFalse(storage.blob().s3().pathStyle());
            assertEquals(new StorageSettings.Files(10000, 10737418240L), storage.files());
            assertEquals(new StorageSettings.Adapters(1000), storage.adapters());

            DatasetSettings datasets = context.getBean(DatasetSettings.class);
            assertEquals(new DatasetSettings.StoredCompletions(10000, 500), datasets.storedCompletions());
            assertEquals(new DatasetSettings.Datasets(100000, 200000), datasets.datasets());
            assertEquals(new DatasetSettings.Lineage(false), datasets.lineage());

            ProcessSettings process = context.getBean(ProcessSettings.class);
            assertEquals(new ProcessSettings.Liveness(Duration.ofSeconds(3), Duration.ofSeconds(15)),
                    process.process());
            assertEquals(new ProcessSettings.Catalog(Duration.ofSeconds(1)), process.catalog());
            assertFalse(process.bootstrap().hasKey());
            assertEquals("default", process.bootstrap().entity());

            CrucibleSettings crucible = context.getBean(CrucibleSettings.class);
            assertEquals(16, crucible.adapterCacheSize());
            assertEquals(new CrucibleSettings.Jobs(16), crucible.jobs());
            assertEquals(new CrucibleSettings.Idempotency(Duration.ofHours(24)), crucible.idempotency());
            assertEquals(Optional.empty(), crucible.trainingData().imports());

            assertEquals(100, context.getBean(PrimitiveSettings.class).maxRunsPage());
        }
    }

    @Test
    void aSettingOfEachGroupOverridesItsDefault() {
        Path imports = TestServer.newDataDir();
        Map<String, Object> overrides = Map.of(
                "crucible.blob.s3.endpoint", "http://127.0.0.1:9000",
                "crucible.files.max-per-entity", "7",
                "crucible.datasets.max-rows", "50",
                "crucible.catalog.poll-interval", "2s",
                "crucible.adapter-cache-size", "4",
                "crucible.jobs.max-queued-per-entity", "3",
                "crucible.idempotency.retention", "1h",
                "crucible.training-data.import-directory", imports.toString(),
                "crucible.primitives.max-runs-page", "50");
        try (TestServer server = TestServer.start(overrides)) {
            StorageSettings storage = server.bean(StorageSettings.class);
            assertEquals(Optional.of(URI.create("http://127.0.0.1:9000")), storage.blob().s3().endpointUri());
            assertEquals("us-east-1", storage.blob().s3().region(), "its neighbours keep their defaults");
            assertEquals(new StorageSettings.Files(7, 10737418240L), storage.files());
            assertEquals(new DatasetSettings.Datasets(50, 200000), server.bean(DatasetSettings.class).datasets());
            ProcessSettings process = server.bean(ProcessSettings.class);
            assertEquals(Duration.ofSeconds(2), process.catalog().pollInterval());
            assertEquals(Duration.ofMillis(200), process.process().heartbeatInterval(), "the fixture's own setting");
            CrucibleSettings crucible = server.bean(CrucibleSettings.class);
            assertEquals(4, crucible.adapterCacheSize());
            assertEquals(3, crucible.jobs().maxQueuedPerEntity());
            assertEquals(Duration.ofHours(1), crucible.idempotency().retention());
            assertEquals(Optional.of(imports), crucible.trainingData().imports());
            assertEquals(50, server.bean(PrimitiveSettings.class).maxRunsPage());
        }
    }
}
