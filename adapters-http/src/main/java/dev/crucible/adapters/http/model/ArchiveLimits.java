package dev.crucible.adapters.http.model;

import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;

/**
 * How far an uploaded adapter archive may unpack, counted in the bytes its entries inflate to (never the sizes the
 * archive declares): a zip of a few kilobytes can hold gigabytes of zeros.
 *
 * @param maxUnpackedBytes the most bytes all entries together may inflate to, ignored entries included
 *                         ({@code crucible.adapters.max-unpacked-bytes})
 * @param maxConfigBytes the most bytes {@code adapter_config.json} may inflate to; PEFT writes about a kilobyte
 *                       ({@code crucible.adapters.max-config-bytes})
 * @param maxEntries the most entries the archive may hold, directories and ignored files included
 *                   ({@code crucible.adapters.max-entries})
 * @param maxRatio the most bytes one entry may inflate to per compressed byte once past {@link #RATIO_FROM} bytes
 *                 ({@code crucible.adapters.max-unpack-ratio}); safetensors weights barely compress
 */
@Singleton
record ArchiveLimits(
        @Value("${crucible.adapters.max-unpacked-bytes:268435456}") long maxUnpackedBytes,
        @Value("${crucible.adapters.max-config-bytes:1048576}") long maxConfigBytes,
        @Value("${crucible.adapters.max-entries:1000}") int maxEntries,
        @Value("${crucible.adapters.max-unpack-ratio:100}") int maxRatio) {

    /** Entries smaller than this are not held to the ratio: a small file may compress very well. */
    static final long RATIO_FROM = 1 << 20;

    ArchiveLimits {
        if (maxUnpackedBytes <= 0 || maxConfigBytes <= 0 || maxEntries <= 0 || maxRatio <= 0) {
            throw new IllegalArgumentException("crucible.adapters.max-unpacked-bytes, max-config-bytes, max-entries and "
                    + "max-unpack-ratio must be positive");
        }
    }
}
