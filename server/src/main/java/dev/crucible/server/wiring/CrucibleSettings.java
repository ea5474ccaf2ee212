package dev.crucible.server.wiring;

import dev.crucible.application.process.ProcessRole;
import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Crucible's own configuration ({@code crucible.*}); the defaults live in {@code application.yml}.
 *
 * @param dataDir where adapters, datasets and the embedded database live
 * @param modelSpecs served base models as {@code NAME=PATH}
 * @param modelPrecisions the precision of some of them as {@code NAME=f32|int8|int4}; may be null
 * @param modelScheduling the scheduling policy of some of them as {@code NAME=fcfs|priority}; may be null
 * @param engine the engine plugin to use, or blank for every installed one
 * @param inferenceEngine the engine that serves base models, or blank for the order of {@link Engines#inference}
 * @param runner job runner timing
 * @param maxBodyBytes the largest request body, and so the largest uploaded file
 * @param trainingData how much SFT training data a job may read, and how long a download may take
 * @param role what this process does among several on one database: all, api or worker ({@link ProcessRole})
 * @param adapterCacheSize the adapters the engines keep loaded, least recently used evicted (one in use never is)
 * @param jobs how many training jobs one entity may have queued
 * @param idempotency how long the keys of creating requests are kept
 */
@ConfigurationProperties("crucible")
record CrucibleSettings(Path dataDir, List<String> modelSpecs, List<String> modelPrecisions,
        List<String> modelScheduling, String engine, String inferenceEngine, Runner runner, long maxBodyBytes,
        TrainingData trainingData, String role, int adapterCacheSize, Jobs jobs, Idempotency idempotency) {

    /** This process's role; a name that is none fails the start, listing the known ones. */
    ProcessRole processRole() {
        return ProcessRole.parse(role == null ? "all" : role);
    }

    /** Whether this process claims training jobs: its role trains and the runner is not switched off. */
    boolean runsJobs() {
        return runner.enabled() && processRole().runsJobs();
    }

    /** @param enabled whether this process runs jobs (several processes may share one database) */
    @ConfigurationProperties("runner")
    record Runner(boolean enabled, Duration pollInterval, Duration heartbeatInterval, Duration staleAfter) {
    }

    /**
     * @param maxExamples the most examples (non-blank lines) an SFT dataset may have
     * @param maxBytes the most bytes an SFT dataset may have; it is read into memory
     * @param connectTimeout how long connecting for an http(s) dataset may take
     * @param readTimeout how long a whole http(s) dataset download may take
     * @param importDirectory the directory {@code file://} datasets are read from; unset or blank refuses them all
     */
    @ConfigurationProperties("training-data")
    record TrainingData(int maxExamples, long maxBytes, Duration connectTimeout, Duration readTimeout,
            @Nullable String importDirectory) {

        /** The directory {@code file://} datasets may be read from, or empty when they are refused. */
        Optional<Path> imports() {
            return importDirectory == null || importDirectory.isBlank() ? Optional.empty()
                    : Optional.of(Path.of(importDirectory));
        }
    }

    /** @param maxQueuedPerEntity the training jobs one entity may have queued; one more is a 429 */
    @ConfigurationProperties("jobs")
    record Jobs(int maxQueuedPerEntity) {
    }

    /** @param retention how long the key of a creating request is kept, and so recognised on a retry */
    @ConfigurationProperties("idempotency")
    record Idempotency(Duration retention) {
    }
}
