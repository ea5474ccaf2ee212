package dev.crucible.engine.spi;

/**
 * One sequence's key/value cache inside a {@link ModelRunner}: the attention keys and values of the tokens forwarded
 * so far, so a later forward only computes the new tokens. Made by {@link ModelRunner#newCache(int)} and usable only
 * with the runner that made it.
 *
 * <p>Ownership: the caller owns the cache and closes it when the sequence ends; closing frees its memory, is
 * idempotent, and a closed cache is rejected by {@link ModelRunner#forward} with an {@link IllegalArgumentException}.
 * The runner's {@link ModelRunner#close()} also frees every cache it made.
 *
 * <p>Threading: a cache is read and advanced only by {@link ModelRunner#forward}, which the runner serialises;
 * {@link #length()} may be read from any thread.
 */
public interface KvCache extends AutoCloseable {

    /** The most tokens this cache can hold, fixed at creation; at least 1. */
    int capacity();

    /** The tokens held, that is the position the next forwarded token takes; 0 for a new cache. */
    int length();

    /** The tokens that still fit: {@code capacity() - length()}. */
    default int remaining() {
        return capacity() - length();
    }

    /** Frees the cache's memory; idempotent. */
    @Override
    void close();
}
