package dev.crucible.runtime.structured;

import dev.crucible.hf.tokenizer.Tokenizer;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.locks.LockSupport;

/**
 * One model's structured decoding: its vocabulary trie (built on the first constrained request) and the token masks
 * of the constraints used last, so repeated requests reuse masks already computed, and the thread grammar masks are
 * computed on, apart from the model's generation thread, so an expensive grammar delays only its own sequences.
 * The mask thread runs at the OS's lowest priority ({@link BackgroundPriority}), and takes at most half a core for
 * masks that cost more than {@link #PACED_FROM_NANOS}: after one, it rests as long as the mask took, so a tenant's
 * ambiguous grammar cannot keep a core of a small machine from the generation step. Thread-safe; {@link #close()}
 * stops the mask thread.
 */
public final class StructuredDecoding implements AutoCloseable {

    /** How many constraints keep their masks. */
    static final int MAX_CONSTRAINTS = 8;
    /** Masks cheaper than this (nearly all) are not paced. */
    static final long PACED_FROM_NANOS = 2_000_000;

    private final Tokenizer tokenizer;
    private TokenVocabulary vocabulary;
    private final Map<String, TokenMasks> masks = new LruMap<>(MAX_CONSTRAINTS);
    private final ExecutorService grammarMasks = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name("crucible-grammar-masks").daemon(true).factory());

    /** @param tokenizer the model's tokenizer, kept open by the caller while this is used */
    public StructuredDecoding(Tokenizer tokenizer) {
        this.tokenizer = tokenizer;
        // the mask thread's first task: the OS's lowest priority, so masks take what the generation step leaves idle
        grammarMasks.execute(BackgroundPriority::lowerCurrentThread);
    }

    /** A cursor at the start of {@code constraint} for one sequence. */
    public synchronized ConstraintCursor start(OutputConstraint constraint, Set<Integer> endIds, int minTokens) {
        if (vocabulary == null) {
            vocabulary = new TokenVocabulary(tokenizer);
        }
        TokenMasks m = masks.computeIfAbsent(constraint.key(), key -> new TokenMasks(constraint, vocabulary));
        return new ConstraintCursor(m, endIds, minTokens, Optional.of(paced));
    }

    private final Executor paced = mask -> grammarMasks.execute(() -> {
        long start = System.nanoTime();
        try {
            mask.run();
        } finally {
            long spent = System.nanoTime() - start;
            if (spent > PACED_FROM_NANOS) {
                LockSupport.parkNanos(spent);
            }
        }
    });

    @Override
    public void close() {
        grammarMasks.shutdownNow();
    }
}
