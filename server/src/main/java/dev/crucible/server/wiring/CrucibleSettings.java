package dev.crucible.server.wiring;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Crucible's own configuration ({@code crucible.*}); the defaults live in {@code application.yml}.
 *
 * @param dataDir where adapters, datasets and the embedded database live
 * @param modelSpecs served base models as {@code NAME=PATH}
 * @param engine the engine plugin to use, or blank for every installed one
 * @param runner job runner timing
 */
@ConfigurationProperties("crucible")
record CrucibleSettings(Path dataDir, List<String> modelSpecs, String engine, Runner runner) {

    /** @param enabled whether this process runs jobs (several processes may share one database) */
    @ConfigurationProperties("runner")
    record Runner(boolean enabled, Duration pollInterval, Duration heartbeatInterval, Duration staleAfter) {
    }
}
