package dev.crucible.server.wiring;

import dev.crucible.application.reward.RewardLimits;
import io.micronaut.context.annotation.ConfigurationProperties;

/**
 * Reward models' bounds ({@code crucible.reward.*}); the defaults live in {@code application.yml}.
 *
 * @param cachedSessions how many reward models' ONNX sessions the scorer keeps open
 */
@ConfigurationProperties("crucible.reward")
record RewardSettings(int minExamples, int maxExamples, int maxTextChars, int maxScoreItems, int epochs,
        int fitsPerKey, int maxConcurrentFits, int cachedSessions) {

    RewardLimits limits() {
        return new RewardLimits(minExamples, maxExamples, maxTextChars, maxScoreItems, epochs, fitsPerKey,
                maxConcurrentFits);
    }
}
