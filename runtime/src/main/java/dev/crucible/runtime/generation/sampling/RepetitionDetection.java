package dev.crucible.runtime.generation.sampling;

import java.util.List;

/**
 * vLLM's {@code repetition_detection}: generation ends (finish reason {@code repetition}) when the output ends with a
 * pattern of {@code minPatternSize..maxPatternSize} tokens repeated {@code minCount} times back to back. Disabled when
 * {@code maxPatternSize} is 0. Immutable.
 *
 * @throws IllegalArgumentException (from the constructor) with vLLM's message for sizes below 0, a minimum above the
 *                                  maximum, or {@code minCount < 2} while enabled
 */
public record RepetitionDetection(int maxPatternSize, int minPatternSize, int minCount) {

    /** Detection switched off, vLLM's default. */
    public static final RepetitionDetection OFF = new RepetitionDetection(0, 0, 0);

    /** Checks the sizes as vLLM's {@code RepetitionDetectionParams} does. */
    public RepetitionDetection {
        SamplingChecks.fail(maxPatternSize < 0 || minPatternSize < 0 || minPatternSize > maxPatternSize,
                "repetition_detection", "max_pattern_size, min_pattern_size must be >=0, with min_pattern_size "
                        + "<= max_pattern_size. Set both to 0 to disable repetitive pattern detection.");
        SamplingChecks.fail(maxPatternSize > 0 && minCount < 2, "repetition_detection",
                "min_count must be >= 2 to detect repetitive patterns in engine output. If you do not wish to "
                        + "detect repetitive patterns, set max_pattern_size to 0.");
    }

    /** Whether detection is on. */
    public boolean enabled() {
        return maxPatternSize > 0 && minCount >= 2;
    }

    /**
     * Whether {@code output} ends with some pattern length {@code L} in {@code [max(min,1), max]} whose last
     * {@code L} tokens occur {@code minCount} times back to back (vLLM's {@code check_sequence_repetition}).
     */
    public boolean repeats(List<Integer> output) {
        if (!enabled()) {
            return false;
        }
        int size = output.size();
        for (int length = Math.max(minPatternSize, 1); length <= maxPatternSize; length++) {
            if ((long) length * minCount > size) {
                return false;
            }
            if (endsWithRepeats(output, length)) {
                return true;
            }
        }
        return false;
    }

    private boolean endsWithRepeats(List<Integer> output, int length) {
        int size = output.size();
        for (int copy = 1; copy < minCount; copy++) {
            for (int i = 0; i < length; i++) {
                int last = size - length + i;
                if (!output.get(last).equals(output.get(last - copy * length))) {
                    return false;
                }
            }
        }
        return true;
    }
}
