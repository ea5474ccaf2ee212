package dev.crucible.runtime.training;

import dev.crucible.hf.tokenizer.Tokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Builds one training sequence from a rendered conversation in which the trained spans are known as text or as token
 * ids: the text between trained spans is tokenised piece by piece (as a server tokenises a prompt and then appends
 * what it sampled), the spans' tokens are marked as targets, and each span may carry the sampler's log-probabilities.
 * A span given as ids that ends with the token the following text begins with (the end-of-turn token, sampled and
 * then written again by the template) keeps only one of them.
 */
public final class TokenizedTurns {

    private final Tokenizer tokenizer;
    private final List<Integer> ids = new ArrayList<>();
    private final List<Integer> targets = new ArrayList<>();
    private final List<Float> logprobs = new ArrayList<>();
    private int lastSpanToken = -1;

    TokenizedTurns(Tokenizer tokenizer) {
        this.tokenizer = tokenizer;
    }

    /** Appends untrained text. */
    TokenizedTurns text(String text) {
        int[] encoded = tokenizer.encode(text, false);
        int from = encoded.length > 0 && encoded[0] == lastSpanToken ? 1 : 0;
        for (int i = from; i < encoded.length; i++) {
            ids.add(encoded[i]);
        }
        lastSpanToken = -1;
        return this;
    }

    /** Appends trained text, tokenised; its log-probabilities are unknown (on-policy). */
    TokenizedTurns trainedText(String text) {
        int[] encoded = tokenizer.encode(text, false);
        float[] unknown = new float[encoded.length];
        Arrays.fill(unknown, Float.NaN);
        trainedIds(encoded, unknown);
        lastSpanToken = -1;
        return this;
    }

    /** Appends trained token ids exactly as sampled, with the sampler's log-probabilities (NaN where unknown). */
    TokenizedTurns trainedIds(int[] sampled, float[] sampledLogprobs) {
        for (int i = 0; i < sampled.length; i++) {
            if (!ids.isEmpty()) {
                targets.add(ids.size());
                logprobs.add(sampledLogprobs[i]);
            }
            ids.add(sampled[i]);
        }
        lastSpanToken = sampled.length == 0 ? -1 : sampled[sampled.length - 1];
        return this;
    }

    int length() {
        return ids.size();
    }

    int targetCount() {
        return targets.size();
    }

    /**
     * The sequence, cut to {@code maxLength} tokens (targets past the cut are dropped, as a packer truncates).
     *
     * @throws TrainingInputException when fewer than two tokens remain
     */
    Turns build(int maxLength, String where) {
        int length = Math.min(ids.size(), maxLength);
        if (length < 2) {
            throw new TrainingInputException(where + " has fewer than two tokens");
        }
        int kept = 0;
        while (kept < targets.size() && targets.get(kept) < length) {
            kept++;
        }
        int[] tokenIds = ids.subList(0, length).stream().mapToInt(Integer::intValue).toArray();
        int[] targetPositions = targets.subList(0, kept).stream().mapToInt(Integer::intValue).toArray();
        float[] old = new float[kept];
        for (int i = 0; i < kept; i++) {
            old[i] = logprobs.get(i);
        }
        return new Turns(tokenIds, targetPositions, old, ids.size() > maxLength);
    }

    /**
     * @param tokenIds  the sequence
     * @param targets   trained positions
     * @param logprobs  the sampler's log-probability of each target's token, NaN where unknown
     * @param truncated whether the conversation was longer than the model's context and was cut
     */
    public record Turns(int[] tokenIds, int[] targets, float[] logprobs, boolean truncated) {
    }
}
