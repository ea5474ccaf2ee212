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
 * @param modelPrecisions the precision of some of them as {@code NAME=f32|int8|int4}; may be null
 * @param modelScheduling the scheduling policy of some of them as {@code NAME=fcfs|priority}; may be null
 * @param engine the engine plugin to use, or blank for every installed one
 * @param inferenceEngine the engine that serves base models, or blank for the order of {@link Engines#inference}
 * @param runner job runner timing
 * @param maxBodyBytes the largest request body, and so the largest uploaded file
 * @param trainingData how much SFT training data a job may read, and how long a download may take
 */
@ConfigurationProperties("crucible")
record CrucibleSettings(Path dataDir, List<String> modelSpecs, List<String> modelPrecisions,
        List<String> modelScheduling, String engine, String inferenceEngine, Runner runner, long maxBodyBytes,
        TrainingData trainingData) {

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
