package dev.crucible.server.wiring;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * Where the server keeps files and adapters, and how many one entity may keep ({@code crucible.blob.*},
 * {@code crucible.files.*}, {@code crucible.adapters.max-per-entity}); the defaults live in {@code application.yml}.
 */
@ConfigurationProperties("crucible")
record StorageSettings(Blob blob, Files files, Adapters adapters) {

    /**
     * @param store {@code local} or {@code s3://bucket[/prefix]}
     * @param adapterCacheBytes the bytes of this server's local copies of adapters, least recently used evicted past
     * @param collectGrace how old an object nothing names must be before it is deleted
     * @param sweepInterval how often this server sweeps for such objects, besides right after each delete
     */
    @ConfigurationProperties("blob")
    record Blob(String store, long adapterCacheBytes, Duration collectGrace, Duration sweepInterval, S3 s3) {

        /**
         * @param endpoint an S3-compatible server's URL; unset or blank for AWS
         * @param region the bucket's region
         * @param pathStyle whether the bucket is addressed as a path ({@code host/bucket/key})
         */
        @ConfigurationProperties("s3")
        record S3(@Nullable String endpoint, String region, boolean pathStyle) {

            /** The endpoint, or empty for AWS. */
            Optional<URI> endpointUri() {
                return endpoint == null || endpoint.isBlank() ? Optional.empty()
                        : Optional.of(URI.create(endpoint.strip()));
            }
        }
    }

    /** @param maxPerEntity the files one entity may store, of {@code maxBytesPerEntity} bytes together */
    @ConfigurationProperties("files")
    record Files(long maxPerEntity, long maxBytesPerEntity) {
    }

    /** @param maxPerEntity the adapter checkpoints one entity may store over all its models */
    @ConfigurationProperties("adapters")
    record Adapters(int maxPerEntity) {
    }
}
