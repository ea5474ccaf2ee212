package dev.crucible.server.wiring;

import dev.crucible.adapters.s3.S3BlobStore;
import dev.crucible.adapters.s3.S3Location;
import dev.crucible.application.blob.AdapterCache;
import dev.crucible.application.blob.BlobAdapterFiles;
import dev.crucible.application.blob.BlobCollector;
import dev.crucible.application.blob.BlobFileContents;
import dev.crucible.application.blob.BlobStore;
import dev.crucible.application.blob.ScheduledBlobSweeps;
import dev.crucible.application.file.FileContents;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blob store (the local data directory's, a bean of adapters-persistence, unless {@code crucible.blob.store} is
 * an {@code s3://} address), and the files and adapters kept in it: uploaded files, checkpoints' adapters with their
 * optimiser state, served from a bounded local cache of adapters ({@code crucible.blob.adapter-cache-bytes}).
 */
@Factory
class BlobFactory {

    private static final Logger LOG = LoggerFactory.getLogger(BlobFactory.class);

    /** S3 or an S3-compatible server; fails the start, saying why, when the bucket cannot be reached. */
    @Singleton
    @Requires(property = "crucible.blob.store", pattern = "s3://.+")
    BlobStore s3BlobStore(StorageSettings.Blob blob) {
        StorageSettings.Blob.S3 s3 = blob.s3();
        S3BlobStore store = S3BlobStore.connect(S3Location.parse(blob.store()), s3.endpointUri(), s3.region(),
                s3.pathStyle());
        store.check();
        LOG.info("Blob store: {} (endpoint {}, region {}, path-style {})", store.location(),
                s3.endpointUri().map(URI::toString).orElse("AWS"), s3.region(), s3.pathStyle());
        return store;
    }

    @Singleton
    BlobCollector blobCollector(BlobStore store, Clock clock, StorageSettings.Blob blob) {
        return new BlobCollector(store, blob.collectGrace(), clock);
    }

    @Singleton
    AdapterCache adapterCache(CrucibleSettings settings, StorageSettings.Blob blob) {
        // a minute covers an engine's load of a folder just handed out, also by another process sharing the data dir
        return new AdapterCache(settings.dataDir().toAbsolutePath().normalize().resolve("adapter-cache"),
                blob.adapterCacheBytes(), Duration.ofMinutes(1));
    }

    /** Sweeps after deletes and every {@code crucible.blob.sweep-interval}, off the request threads. */
    @Singleton
    @Bean(preDestroy = "close")
    ScheduledBlobSweeps blobSweeps(BlobCollector collector, StorageSettings.Blob blob) {
        return new ScheduledBlobSweeps(collector, blob.sweepInterval());
    }

    @Singleton
    FileContents fileContents(BlobStore store, ScheduledBlobSweeps sweeps) {
        return new BlobFileContents(store, sweeps);
    }

    @Singleton
    BlobAdapterFiles adapterFiles(BlobStore store, AdapterCache cache, ScheduledBlobSweeps sweeps) {
        return new BlobAdapterFiles(store, cache, sweeps);
    }
}
