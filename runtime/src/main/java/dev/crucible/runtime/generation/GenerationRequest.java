package dev.crucible.runtime.generation;

import dev.crucible.engine.spi.LoraAdapter;
import dev.crucible.runtime.generation.prefix.PrefixScope;
import dev.crucible.runtime.generation.sampling.SamplingParams;
import dev.crucible.runtime.structured.OutputConstraint;
import java.util.Objects;
import java.util.Optional;

/**
 * One request to generate: a tokenized prompt, its sampling parameters ({@code n} sequences) and a priority.
 * The ids are copied on construction and on access.
 *
 * @param priority lower values are scheduled first (vLLM's {@code priority}, default 0)
 * @param adapter the LoRA adapter every sequence of the request runs with, or null for the base model; the caller
 *                keeps it open until the request ends
 * @param constraint the structured-output constraint every sequence's output must match, if any
 * @param owner whom the request is for: requests of equal priority take turns by owner; its entity also scopes the
 *              prefix cache
 * @param cacheSalt the request's {@code cache_salt}: prompts reuse cached prefixes only of requests with the same salt
 *                  (or none) and entity ({@link PrefixScope})
 */
public record GenerationRequest(int[] promptTokenIds, SamplingParams params, int priority, LoraAdapter adapter,
        Optional<OutputConstraint> constraint, RequestOwner owner, Optional<String> cacheSalt) {

    /** Rejects nulls and an empty prompt; copies the ids. */
    public GenerationRequest {
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(constraint, "constraint");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(cacheSalt, "cacheSalt");
        if (promptTokenIds == null || promptTokenIds.length == 0) {
            throw new IllegalArgumentException("promptTokenIds must hold at least one token");
        }
        promptTokenIds = promptTokenIds.clone();
    }

    /** A request without a cache salt. */
    public GenerationRequest(int[] promptTokenIds, SamplingParams params, int priority, LoraAdapter adapter,
            Optional<OutputConstraint> constraint, RequestOwner owner) {
        this(promptTokenIds, params, priority, adapter, constraint, owner, Optional.empty());
    }

    /** A request of no particular owner. */
    public GenerationRequest(int[] promptTokenIds, SamplingParams params, int priority, LoraAdapter adapter,
            Optional<OutputConstraint> constraint) {
        this(promptTokenIds, params, priority, adapter, constraint, RequestOwner.ANONYMOUS);
    }

    /** An unconstrained request. */
    public GenerationRequest(int[] promptTokenIds, SamplingParams params, int priority, LoraAdapter adapter) {
        this(promptTokenIds, params, priority, adapter, Optional.empty());
    }

    /** A request on the base model. */
    public GenerationRequest(int[] promptTokenIds, SamplingParams params, int priority) {
        this(promptTokenIds, params, priority, null);
    }

    /** A request at the default priority 0. */
    public static GenerationRequest of(int[] promptTokenIds, SamplingParams params) {
        return new GenerationRequest(promptTokenIds, params, 0);
    }

    /** This request run with {@code adapter} (null for the base model) instead of its own. */
    public GenerationRequest withAdapter(LoraAdapter adapter) {
        return new GenerationRequest(promptTokenIds, params, priority, adapter, constraint, owner, cacheSalt);
    }

    /** A copy of the prompt ids. */
    @Override
    public int[] promptTokenIds() {
        return promptTokenIds.clone();
    }
}
