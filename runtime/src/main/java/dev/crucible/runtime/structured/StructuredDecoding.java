package dev.crucible.runtime.structured;

import dev.crucible.engine.spi.Tokenizer;
import dev.crucible.runtime.cache.LruMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One model's structured decoding: its vocabulary trie (built on the first constrained request) and the token masks
 * of the constraints used last, so repeated requests reuse masks already computed, and the thread grammar masks are
 * computed on, apart from the model's generation thread, so an expensive grammar delays only its own sequences.
 * Thread-safe; {@link #close()} stops the mask thread.
 */
public final class StructuredDecoding implements AutoCloseable {

    /** How many constraints keep their masks. */
    static final int MAX_CONSTRAINTS = 8;

    private final Tokenizer tokenizer;
    private TokenVocabulary vocabulary;
    private final Map<String, TokenMasks> masks = new LruMap<>(MAX_CONSTRAINTS);
    private final ExecutorService grammarMasks = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().name("crucible-grammar-masks").daemon(true).factory());

    /** @param tokenizer the model's tokenizer, kept open by the caller while this is used */
    public StructuredDecoding(Tokenizer tokenizer) {
        this.tokenizer = tokenizer;
    }

    /** A cursor at the start of {@code constraint} for one sequence. */
    public synchronized ConstraintCursor start(OutputConstraint constraint, Set<Integer> endIds, int minTokens) {
        if (vocabulary == null) {
            vocabulary = new TokenVocabulary(tokenizer);
        }
        TokenMasks m = masks.computeIfAbsent(constraint.key(), key -> new TokenMasks(constraint, vocabulary));
        return new ConstraintCursor(m, endIds, minTokens, Optional.of(grammarMasks));
    }

    @Override
    public void close() {
        grammarMasks.shutdownNow();
    }
}
