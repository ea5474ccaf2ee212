package dev.crucible.runtime.generation.beam;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.runtime.generation.GenerationHandle;
import dev.crucible.runtime.generation.GenerationListener;
import dev.crucible.runtime.generation.GenerationRequest;
import dev.crucible.runtime.generation.GenerationResult;
import dev.crucible.runtime.generation.Generator;
import dev.crucible.runtime.generation.logprobs.TokenLogprob;
import dev.crucible.runtime.generation.sampling.SamplingParams;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link NextTokens} from a {@link Generator}: each sequence of a step becomes one request for one greedy token with
 * {@code count} logprobs, all submitted before any is awaited so the generator batches them into one forward. The
 * requests run with {@code base}'s priority, adapter and owner (its prompt, sampling and constraint are not used).
 * {@link #cancel()} may be called from any thread.
 */
public final class GeneratorNextTokens implements NextTokens {

    private final Generator generator;
    private final GenerationRequest base;
    private final Set<GenerationHandle> running = ConcurrentHashMap.newKeySet();
    private final int minimumLogprobs;
    private volatile boolean cancelled;

    /**
     * Steps on {@code generator} with {@code base}'s priority, adapter (the caller keeps it open) and owner, asking
     * for at least {@code minimumLogprobs} logprobs per step (to return that many alternatives per token).
     */
    public GeneratorNextTokens(Generator generator, GenerationRequest base, int minimumLogprobs) {
        this.generator = generator;
        this.base = base;
        this.minimumLogprobs = minimumLogprobs;
    }

    /**
     * Refused when the generator refuses a request (overloaded, or {@code count} above the logprobs limit); the
     * step's other requests are then cancelled. An engine failure is rethrown as it was.
     */
    @Override
    public Outcome<List<List<TokenLogprob>>> next(List<int[]> sequences, int count) {
        return SamplingParams.builder().temperature(0).maxTokens(1)
                .logprobs(Math.max(count, minimumLogprobs)).build()
                .then(params -> step(sequences, params));
    }

    private Outcome<List<List<TokenLogprob>>> step(List<int[]> sequences, SamplingParams params) {
        List<GenerationHandle> handles = new ArrayList<>();
        try {
            for (int[] sequence : sequences) {
                GenerationRequest request = new GenerationRequest(sequence, params, base.priority(), base.adapter(),
                        Optional.empty(), base.owner());
                Outcome<GenerationHandle> submitted = generator.submit(request, GenerationListener.NONE);
                if (!(submitted instanceof Outcome.Done<GenerationHandle>(GenerationHandle handle))) {
                    handles.forEach(GenerationHandle::cancel);
                    return submitted.map(h -> List.of());
                }
                handles.add(handle);
                running.add(handle);
            }
            if (cancelled) {
                handles.forEach(GenerationHandle::cancel);
            }
            List<List<TokenLogprob>> answers = new ArrayList<>();
            for (GenerationHandle handle : handles) {
                answers.add(candidates(join(handle)));
            }
            return Outcome.done(answers);
        } finally {
            handles.forEach(running::remove);
        }
    }

    /** Cancels the step under way and makes later steps return no candidates. Idempotent. */
    public void cancel() {
        cancelled = true;
        running.forEach(GenerationHandle::cancel);
    }

    /** Whether {@link #cancel()} was called. */
    public boolean cancelled() {
        return cancelled;
    }

    /** The logprobs of the one generated position; none when the request was cancelled before it generated. */
    private static List<TokenLogprob> candidates(GenerationResult result) {
        if (result.sequences().isEmpty() || result.sequences().getFirst().logprobs().isEmpty()) {
            return List.of();
        }
        return result.sequences().getFirst().logprobs().getFirst().top();
    }

    private static GenerationResult join(GenerationHandle handle) {
        try {
            return handle.result().join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }
}
