package dev.crucible.runtime.generation;

import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.LoraAdapter;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.engine.spi.SequenceLogits;
import dev.crucible.runtime.generation.logprobs.LogprobTexts;
import dev.crucible.runtime.generation.logprobs.PositionLogprobs;
import dev.crucible.runtime.generation.logprobs.PromptLogprobs;
import dev.crucible.runtime.generation.logprobs.RankedLogprob;
import dev.crucible.runtime.generation.sampling.LogSoftmax;
import dev.crucible.runtime.generation.sampling.Sample;
import dev.crucible.runtime.generation.sampling.Sampler;
import dev.crucible.runtime.generation.stopping.Finish;
import dev.crucible.runtime.generation.stopping.FinishReason;
import dev.crucible.runtime.generation.stopping.StopReason;
import dev.crucible.runtime.generation.stopping.StopStrings;
import dev.crucible.runtime.generation.stopping.TokenStops;
import dev.crucible.runtime.structured.ConstraintCursor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;

/**
 * One sequence being generated: its cache, sampler, prefill progress, tokens and text. After each sample it applies
 * the stop checks in vLLM's order (token stops, then detokenize, then stop strings, which override) and says what to
 * stream. Used only by the scheduling thread.
 */
final class SequenceState {

    private final int index;
    private final int[] prompt;
    private final KvCache cache;
    private final LoraAdapter adapter;
    private final Sampler sampler;
    private final TokenStops tokenStops;
    private final StopStrings stopStrings;
    private final IncrementalDetokenizer detokenizer;
    private final LogprobTexts logprobTexts;
    private final int minTokens;
    private final OptionalInt promptTop;
    private final List<PromptLogprobs> promptLogprobs = new ArrayList<>();
    private final Optional<ConstraintCursor> constraint;
    private final List<Integer> tokens = new ArrayList<>();
    private final List<PositionLogprobs> logprobs = new ArrayList<>();
    private String text = "";
    private int emitted;
    private int prefilled;
    private boolean awaitsFirst;
    private Finish finish;

    SequenceState(int index, int[] prompt, KvCache cache, LoraAdapter adapter, Sampler sampler, TokenStops tokenStops,
            StopStrings stopStrings, IncrementalDetokenizer detokenizer, LogprobTexts logprobTexts, int minTokens,
            OptionalInt promptTop, Optional<ConstraintCursor> constraint) {
        this.promptTop = promptTop;
        this.constraint = constraint;
        this.adapter = adapter;
        this.index = index;
        this.prompt = prompt;
        this.cache = cache;
        this.sampler = sampler;
        this.tokenStops = tokenStops;
        this.stopStrings = stopStrings;
        this.detokenizer = detokenizer;
        this.logprobTexts = logprobTexts;
        this.minTokens = minTokens;
    }

    /** The sequence's index among the request's {@code n}. */
    int index() {
        return index;
    }

    KvCache cache() {
        return cache;
    }

    /** Whether prompt tokens are still to be forwarded (or copied from the first sequence). */
    boolean prefilling() {
        return prefilled < prompt.length;
    }

    /** The prompt tokens still to be forwarded. */
    int promptLeft() {
        return prompt.length - prefilled;
    }

    /** Records that the cache holds the first {@code tokens} prompt tokens already (restored from the prefix cache). */
    void restored(int tokens) {
        prefilled = tokens;
    }

    /** Makes this sequence wait for the first one's prefill instead of forwarding its own ({@link #copyPromptFrom}). */
    void awaitFirst() {
        awaitsFirst = true;
    }

    /** Whether this sequence waits for the first one's prefill; it is left out of forwards meanwhile. */
    boolean awaitsFirst() {
        return awaitsFirst;
    }

    /**
     * Takes the whole prompt from {@code first}, whose prefill has just completed, by copying its cache; the first
     * sequence's last prompt logits then serve this one's first sample too. {@code first} is the first sequence of
     * this request or of another request with the same prompt and prefix scope.
     */
    void copyPromptFrom(SequenceState first, ModelRunner runner) {
        runner.copyPrefix(first.cache, cache, prompt.length);
        prefilled = prompt.length;
        awaitsFirst = false;
    }

    /** The next forward input: the next prompt chunk of at most {@code chunk} tokens, or the last sampled token. */
    SequenceInput nextInput(int chunk) {
        if (prefilled < prompt.length) {
            return new SequenceInput(cache, Arrays.copyOfRange(prompt, prefilled, Math.min(prompt.length,
                    prefilled + chunk)), promptTop.isPresent(), adapter);
        }
        return SequenceInput.of(cache, adapter, tokens.getLast());
    }

    /**
     * Records that {@code input} went through the model, keeping prompt logprobs when asked; true when its logits
     * predict the next token.
     */
    boolean forwarded(SequenceInput input, SequenceLogits logits) {
        if (prefilled < prompt.length) {
            if (promptTop.isPresent()) {
                for (int j = 0; j < logits.positions().size() && prefilled + j + 1 < prompt.length; j++) {
                    promptLogprobs.add(promptPosition(logits.positions().get(j), prompt[prefilled + j + 1]));
                }
            }
            prefilled += input.length();
        }
        return prefilled == prompt.length;
    }

    /**
     * vLLM's prompt-logprob dict for one position: the actual token with its rank (tokens at least as likely),
     * then the top N by rank; an actual token among the top N keeps its place first and takes its top-N rank.
     */
    private PromptLogprobs promptPosition(float[] logits, int actual) {
        double[] lp = LogSoftmax.of(logits);
        long rank = 0;
        for (double x : lp) {
            rank += x >= lp[actual] ? 1 : 0;
        }
        List<RankedLogprob> entries = new ArrayList<>();
        entries.add(new RankedLogprob(logprobTexts.token(actual, lp[actual]), rank));
        boolean[] taken = new boolean[lp.length];
        for (int r = 1; r <= promptTop.getAsInt() && r <= lp.length; r++) {
            int best = -1;
            for (int id = 0; id < lp.length; id++) {
                if (!taken[id] && (best < 0 || lp[id] > lp[best])) {
                    best = id;
                }
            }
            taken[best] = true;
            RankedLogprob entry = new RankedLogprob(logprobTexts.token(best, lp[best]), r);
            if (best == actual) {
                entries.set(0, entry);
            } else {
                entries.add(entry);
            }
        }
        return new PromptLogprobs(entries);
    }

    /** The prompt logprobs, when this sequence was asked to keep them. */
    Optional<List<PromptLogprobs>> promptLogprobs() {
        return promptTop.isPresent() ? Optional.of(promptLogprobs) : Optional.empty();
    }

    /**
     * Samples the next token from the raw logits (masked by the structured-output constraint, if any), checks the
     * stops and returns what to stream. A constraint that is complete and allows no token (no EOS may end it) ends
     * the sequence as stopped without sampling; a token the constraint did not allow (every allowed token was
     * banned by another processor) ends it the same way.
     */
    GenerationDelta accept(float[] logits) {
        Optional<BitSet> allowed = constraint.map(ConstraintCursor::allowed);
        int firstAllowed = allowed.map(a -> a.nextSetBit(0)).orElse(0);
        if (firstAllowed < 0 || firstAllowed >= logits.length) {
            finish = Finish.of(FinishReason.STOP);
            return delta(List.of(), List.of());
        }
        Sample sample = sampler.sample(logits, allowed);
        int token = sample.tokenId();
        tokens.add(token);
        if (constraint.isPresent() && !constraint.get().advance(token)) {
            finish = Finish.of(FinishReason.STOP);
        }
        Optional<PositionLogprobs> position = logprobTexts.of(sample);
        position.ifPresent(logprobs::add);
        finish = finish != null ? finish : tokenStops.check(tokens).orElse(null);
        boolean skipText = finish != null && TokenStops.byStopToken(finish) && !stopStrings.includesStops();
        String added = skipText ? "" : detokenizer.append(token);
        text += added;
        if (!stopStrings.isEmpty() && tokens.size() > minTokens) {
            stopStrings.find(text, added.length()).ifPresent(match -> {
                finish = Finish.of(FinishReason.STOP, new StopReason.StopString(match.stop()));
                text = text.substring(0, Math.min(match.cutAt(), text.length()));
            });
        }
        return delta(List.of(token), position.stream().toList());
    }

    /** Ends the sequence as cancelled, streaming what text was held back. */
    GenerationDelta abort() {
        finish = Finish.of(FinishReason.ABORT);
        return delta(List.of(), List.of());
    }

    private GenerationDelta delta(List<Integer> newTokens, List<PositionLogprobs> newLogprobs) {
        int end = text.length();
        if (finish == null) {
            end = Math.max(emitted, end - stopStrings.holdBack());
            if (end > emitted && Character.isHighSurrogate(text.charAt(end - 1))) {
                end--; // never split a surrogate pair across deltas
            }
        }
        String part = text.substring(emitted, end);
        emitted = end;
        return new GenerationDelta(index, newTokens, part, newLogprobs, Optional.ofNullable(finish));
    }

    boolean finished() {
        return finish != null;
    }

    /**
     * Whether the sequence can sample as soon as its logits come: false while its grammar's next mask is still being
     * computed off the generation thread, so it sits this step out instead of making every other sequence wait.
     */
    boolean ready() {
        return constraint.map(ConstraintCursor::ready).orElse(true);
    }

    /** The grammar mask this sequence waits for, if any. */
    Optional<CompletableFuture<BitSet>> pendingMask() {
        return constraint.flatMap(ConstraintCursor::pending).filter(f -> !f.isDone());
    }

    /** The finished output; only once {@link #finished()}. */
    SequenceOutput output() {
        return new SequenceOutput(index, tokens, text, logprobs, finish);
    }

    /** Frees the cache; idempotent. */
    void release() {
        cache.close();
    }
}
