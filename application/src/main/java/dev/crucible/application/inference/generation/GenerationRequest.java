package dev.crucible.application.inference.generation;

import dev.crucible.engine.spi.LoraAdapter;
import dev.crucible.application.inference.generation.sampling.SamplingParams;
import java.util.Objects;

/**
 * One request to generate: a tokenized prompt, its sampling parameters ({@code n} sequences) and a priority.
 * The ids are copied on construction and on access.
 *
 * @param priority lower values are scheduled first (vLLM's {@code priority}, default 0)
 * @param adapter the LoRA adapter every sequence of the request runs with, or null for the base model; the caller
 *                keeps it open until the request ends
 */
public record GenerationRequest(int[] promptTokenIds, SamplingParams params, int priority, LoraAdapter adapter) {

    /** Rejects nulls and an empty prompt; copies the ids. */
    public GenerationRequest {
        Objects.requireNonNull(params, "params");
        if (promptTokenIds == null || promptTokenIds.length == 0) {
            throw new IllegalArgumentException("promptTokenIds must hold at least one token");
        }
        promptTokenIds = promptTokenIds.clone();
    }

    /** A request on the base model. */
    public GenerationRequest(int[] promptTokenIds, SamplingParams params, int priority) {
        this(promptTokenIds, params, priority, null);
    }

    /** A request at the default priority 0. */
    public static GenerationRequest of(int[] promptTokenIds, SamplingParams params) {
        return new GenerationRequest(promptTokenIds, params, 0);
    }

    /** A copy of the prompt ids. */
    @Override
    public int[] promptTokenIds() {
        return promptTokenIds.clone();
    }
}
