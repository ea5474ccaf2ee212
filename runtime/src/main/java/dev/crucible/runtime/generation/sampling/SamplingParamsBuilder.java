package dev.crucible.runtime.generation.sampling;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Collects sampling parameters, starting from vLLM's built-in defaults, and checks them in {@link #build()}. Not
 * thread-safe; use one builder per request.
 */
public final class SamplingParamsBuilder {

    private double temperature = 1;
    private double topP = 1;
    private int topK;
    private double minP;
    private double presencePenalty;
    private double frequencyPenalty;
    private double repetitionPenalty = 1;
    private OptionalLong seed = OptionalLong.empty();
    private Map<Integer, Double> logitBias = Map.of();
    private Optional<List<Integer>> allowedTokenIds = Optional.empty();
    private List<List<Integer>> badWords = List.of();
    private int maxTokens = Integer.MAX_VALUE;
    private int minTokens;
    private List<String> stop = List.of();
    private List<Integer> stopTokenIds = List.of();
    private boolean ignoreEos;
    private boolean includeStopStrInOutput;
    private boolean skipSpecialTokens = true;
    private OptionalInt logprobs = OptionalInt.empty();
    private boolean spacesBetweenSpecialTokens = true;
    private OptionalInt promptLogprobs = OptionalInt.empty();
    private int n = 1;
    private RepetitionDetection repetitionDetection = RepetitionDetection.OFF;
    private InvalidSamplingParamException badRepetitionDetection;

    SamplingParamsBuilder() {
    }

    /**
     * The parameters, or a refusal whose {@code param} is the request field at fault and whose message is vLLM's.
     * {@code repetition_detection} is checked first, as its schema is.
     */
    public Outcome<SamplingParams> build() {
        if (badRepetitionDetection != null) {
            return Outcome.refused(Refusal.invalid(badRepetitionDetection.param(), badRepetitionDetection.getMessage()));
        }
        try {
            return Outcome.done(new SamplingParams(temperature, topP, topK, minP, presencePenalty, frequencyPenalty,
                    repetitionPenalty, seed, logitBias, allowedTokenIds, badWords, maxTokens, minTokens, stop,
                    stopTokenIds, ignoreEos, includeStopStrInOutput, skipSpecialTokens, logprobs, n,
                    repetitionDetection, spacesBetweenSpecialTokens, promptLogprobs));
        } catch (InvalidSamplingParamException e) {
            return Outcome.refused(Refusal.invalid(e.param(), e.getMessage()));
        }
    }

    public SamplingParamsBuilder temperature(double value) { temperature = value; return this; }

    public SamplingParamsBuilder topP(double value) { topP = value; return this; }

    public SamplingParamsBuilder topK(int value) { topK = value; return this; }

    public SamplingParamsBuilder minP(double value) { minP = value; return this; }

    public SamplingParamsBuilder presencePenalty(double value) { presencePenalty = value; return this; }

    public SamplingParamsBuilder frequencyPenalty(double value) { frequencyPenalty = value; return this; }

    public SamplingParamsBuilder repetitionPenalty(double value) { repetitionPenalty = value; return this; }

    public SamplingParamsBuilder seed(long value) { seed = OptionalLong.of(value); return this; }

    public SamplingParamsBuilder logitBias(Map<Integer, Double> value) { logitBias = value; return this; }

    public SamplingParamsBuilder allowedTokenIds(List<Integer> ids) { allowedTokenIds = Optional.of(ids); return this; }

    public SamplingParamsBuilder badWords(List<List<Integer>> value) { badWords = value; return this; }

    public SamplingParamsBuilder maxTokens(int value) { maxTokens = value; return this; }

    public SamplingParamsBuilder minTokens(int value) { minTokens = value; return this; }

    public SamplingParamsBuilder stop(List<String> value) { stop = value; return this; }

    public SamplingParamsBuilder stopTokenIds(List<Integer> value) { stopTokenIds = value; return this; }

    public SamplingParamsBuilder ignoreEos(boolean value) { ignoreEos = value; return this; }

    public SamplingParamsBuilder includeStopStrInOutput(boolean value) { includeStopStrInOutput = value; return this; }

    public SamplingParamsBuilder skipSpecialTokens(boolean value) { skipSpecialTokens = value; return this; }

    /** vLLM's {@code spaces_between_special_tokens}, true by default. */
    public SamplingParamsBuilder spacesBetweenSpecialTokens(boolean value) {
        spacesBetweenSpecialTokens = value;
        return this;
    }

    /** Asks for prompt logprobs with {@code topN} alternatives per prompt token. */
    public SamplingParamsBuilder promptLogprobs(int topN) {
        promptLogprobs = OptionalInt.of(topN);
        return this;
    }

    /** Asks for logprobs with {@code topN} alternatives per token. */
    public SamplingParamsBuilder logprobs(int topN) { logprobs = OptionalInt.of(topN); return this; }

    public SamplingParamsBuilder n(int value) { n = value; return this; }

    /** Sets repetition detection; an invalid combination makes {@link #build()} refuse. */
    public SamplingParamsBuilder repetitionDetection(int maxPatternSize, int minPatternSize, int minCount) {
        try {
            repetitionDetection = new RepetitionDetection(maxPatternSize, minPatternSize, minCount);
        } catch (InvalidSamplingParamException e) {
            badRepetitionDetection = e;
        }
        return this;
    }
}
