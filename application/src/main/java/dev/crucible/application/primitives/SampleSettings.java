package dev.crucible.application.primitives;

import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * {@code asample}'s settings: how many samples, how they are drawn and when they stop, and which prompt
 * log-probabilities to return. Ranges are checked by the sampler's own rules when the request is accepted.
 *
 * @param maxTokens          empty: as many as the context leaves, up to {@code crucible.primitives.max-sample-tokens}
 * @param stopStrings        text that ends a sample
 * @param stopTokens         token ids that end a sample (only these and {@code stopStrings} do; EOS does not)
 * @param topkPromptLogprobs how many likeliest tokens to list per prompt position (0: none)
 */
public record SampleSettings(int numSamples, OptionalInt maxTokens, double temperature, double topP, int topK,
        OptionalLong seed, List<String> stopStrings, List<Integer> stopTokens, boolean promptLogprobs,
        int topkPromptLogprobs) {

    public SampleSettings {
        stopStrings = List.copyOf(stopStrings);
        stopTokens = List.copyOf(stopTokens);
    }
}
