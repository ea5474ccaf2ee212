package dev.crucible.runtime.generation;

import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.engine.spi.SequenceLogits;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

/**
 * One step of the loop. It forwards every unfinished sequence once, in one batched call: a prefilling sequence its
 * next prompt chunk, a decoding one its last token; each sequence whose prompt is complete then samples a token, which
 * is streamed, and the requests whose sequences have all finished complete. While any sequence decodes, the prompt
 * chunks of a step share the options' {@link PrefillBudget} (fixed, or paced by {@link PrefillPacer} from the timed
 * forwards, then one prompt piece a step, its size from the pacer's cost model at that piece's position), so a long
 * prompt arriving holds the running streams up for a bounded part of each step rather than for a whole chunk; a
 * prefilling sequence the budget does not reach sits the step out. Each decoding step is traced at DEBUG (pieces,
 * positions, predicted and measured times).
 *
 * <p>A grammar-constrained sequence's next token mask is computed off the loop's thread, on its
 * {@code StructuredDecoding}'s mask thread, as soon as it takes a token; until the mask is ready the sequence sits
 * the steps out, so one tenant's expensive grammar never slows the other sequences' tokens (and its own parse is
 * bounded per token).
 *
 * <p>Failures, {@link Error}s included, fail only the requests they concern: the batch of a failed forward (counted by
 * {@link StepFailures}), the one request a sampler, a constraint or a listener failed for. Used on the scheduling
 * thread only.
 */
final class BatchStep {

    private static final System.Logger LOG = System.getLogger(BatchStep.class.getName());
    /** How long a loop whose every sequence awaits a grammar mask waits before it looks for new requests again. */
    private static final long MASK_WAIT_MILLIS = 1;

    private final ModelRunner runner;
    private final GeneratorOptions options;
    private final GeneratorStats stats;
    private final PrefillSharing sharing;
    private final StepFailures failures;
    private final PrefillPacer pacer;
    /** The nanosecond clock the forwards are timed by ({@link System#nanoTime()} but in tests). */
    private final LongSupplier clock;
    private final List<RequestState> running;

    /** @param running the loop's running requests, which the step forwards and forgets once done */
    BatchStep(ModelRunner runner, GeneratorOptions options, GeneratorStats stats, PrefillSharing sharing,
            StepFailures failures, LongSupplier clock, List<RequestState> running) {
        this.runner = runner;
        this.options = options;
        this.stats = stats;
        this.sharing = sharing;
        this.failures = failures;
        this.pacer = new PrefillPacer(options.prefillBudget(), options.prefillChunkTokens());
        this.clock = clock;
        this.running = running;
    }

    /** One batched forward over every unfinished sequence, then sampling, streaming and completion. */
    void run() {
        long stepStart = clock.getAsLong();
        sharing.endSettledWaits();
        List<SequenceState> batch = new ArrayList<>();
        List<RequestState> owners = new ArrayList<>();
        List<CompletableFuture<?>> masking = new ArrayList<>();
        for (RequestState request : running) {
            for (SequenceState sequence : request.sequences) {
                if (!sequence.finished() && request.handle.cancelRequested()) {
                    request.publish(sequence.abort());
                } else if (!sequence.finished() && !sequence.awaitsFirst() && !request.awaitsPrefill()) {
                    if (sequence.ready()) {
                        batch.add(sequence);
                        owners.add(request);
                    } else {
                        sequence.pendingMask().ifPresent(masking::add);
                    }
                }
            }
        }
        if (batch.isEmpty() && !masking.isEmpty()) {
            awaitAny(masking);
        }
        int decoding = (int) batch.stream().filter(s -> !s.prefilling()).count();
        int position = batch.stream().filter(SequenceState::prefilling).findFirst().map(s -> s.cache().length())
                .orElse(0);
        int budget = decoding == 0 ? Integer.MAX_VALUE : pacer.tokens(decoding, position);
        withinBudget(batch, owners, budget, decoding == 0 || pacer.severalPieces());
        if (!batch.isEmpty()) {
            List<SequenceInput> inputs = new ArrayList<>(batch.size());
            int prompt = 0;
            for (SequenceState sequence : batch) {
                SequenceInput input = sequence.nextInput(sequence.prefilling()
                        ? Math.min(options.prefillChunkTokens(), budget - prompt) : 1);
                inputs.add(input);
                prompt += sequence.prefilling() ? input.length() : 0;
            }
            double predicted = decoding > 0 && prompt > 0 ? pacer.predictedNanos(prompt, position) : Double.NaN;
            stats.prefillTokens.add(prompt);
            List<SequenceLogits> logits;
            long forwardNanos;
            try {
                stats.forwards.increment();
                long start = clock.getAsLong();
                logits = runner.forward(inputs);
                forwardNanos = clock.getAsLong() - start;
                pacer.forwarded(decoding, prompt, position, forwardNanos);
            } catch (Throwable e) {
                // counted first, so whoever hears of this failure finds the loop already broken if it now is
                failures.failed(e);
                owners.stream().distinct().forEach(r -> r.fail(e));
                running.removeIf(RequestState::done);
                return;
            }
            failures.forwardSucceeded();
            for (int i = 0; i < batch.size(); i++) {
                RequestState owner = owners.get(i);
                SequenceState sequence = batch.get(i);
                try {
                    boolean prefilling = sequence.prefilling();
                    if (sequence.forwarded(inputs.get(i), logits.get(i)) && !owner.done()) {
                        stats.generatedTokens.increment();
                        owner.publish(sequence.accept(logits.get(i).last()));
                        if (prefilling && !owner.done()) {
                            sharing.promptForwarded(owner, sequence, logits.get(i).last());
                        }
                    }
                } catch (Throwable e) {
                    owner.fail(e);
                }
            }
            trace(decoding, prompt, position, predicted, forwardNanos, clock.getAsLong() - stepStart);
        }
        running.forEach(RequestState::completeIfFinished);
        running.stream().filter(r -> r.done() && r.handle.cancelRequested()).forEach(r -> stats.aborted.increment());
        running.removeIf(RequestState::done);
    }

    /**
     * Logs a step that decoded (at DEBUG, {@code java.util.logging}'s FINE): how many sequences it decoded, the prompt
     * tokens it forwarded beside them and the position the first prefilling sequence's piece started at, the extra
     * time the pacer predicted for them, the forward's and the whole step's time, and the pacer's figures after it;
     * so the pacing can be followed step by step on a live server.
     */
    private void trace(int decoding, int prompt, int position, double predicted, long forwardNanos, long stepNanos) {
        if (decoding > 0 && LOG.isLoggable(System.Logger.Level.DEBUG)) {
            LOG.log(System.Logger.Level.DEBUG, String.format(Locale.ROOT,
                    "step: decoding %d, prompt %d at %d, predicted +%.1f ms, forward %.1f ms, step %.1f ms, %s",
                    decoding, prompt, position, predicted / 1e6, forwardNanos / 1e6, stepNanos / 1e6, pacer));
        }
    }

    /**
     * Leaves out of {@code batch} (and {@code owners}, index for index) the prefilling sequences that {@code budget}
     * prompt tokens do not reach. The budget goes to the prefilling sequences in running order, so the earliest
     * admitted prompt finishes first; unless {@code severalPieces}, only the first gets any (a paced budget is the
     * cost of one prefill run). A paced budget is 0 for a step only while the pacer has no decode-only step of the
     * running streams timed, which that step gives it; else it is at least one token, so a prompt moves on.
     */
    private void withinBudget(List<SequenceState> batch, List<RequestState> owners, int budget,
            boolean severalPieces) {
        int left = budget;
        for (int i = 0; i < batch.size(); i++) {
            if (batch.get(i).prefilling()) {
                if (left <= 0) {
                    batch.remove(i);
                    owners.remove(i);
                    i--;
                } else {
                    left = severalPieces ? left - Math.min(batch.get(i).promptLeft(),
                            Math.min(left, options.prefillChunkTokens())) : 0;
                }
            }
        }
    }

    /** Waits a little for one of the grammar masks being computed, so a loop with nothing else to do does not spin. */
    private static void awaitAny(List<CompletableFuture<?>> masks) {
        try {
            CompletableFuture.anyOf(masks.toArray(CompletableFuture[]::new)).get(MASK_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // a failed mask fails its request at its next step; a slow one is waited for again
        }
    }
}
