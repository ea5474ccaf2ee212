package dev.crucible.server.wiring;

import dev.crucible.application.process.ProcessRole;
import io.micronaut.context.annotation.ConfigurationProperties;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

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
 */
@ConfigurationProperties("crucible")
record CrucibleSettings(Path dataDir, List<String> modelSpecs, List<String> modelPrecisions,
        List<String> modelScheduling, String engine, String inferenceEngine, Runner runner, long maxBodyBytes,
        TrainingData trainingData, String role) {

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
     */
    @ConfigurationProperties("training-data")
    record TrainingData(int maxExamples, long maxBytes, Duration connectTimeout, Duration readTimeout) {
    }
}
