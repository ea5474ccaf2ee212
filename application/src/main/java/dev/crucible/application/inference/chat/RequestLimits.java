package dev.crucible.application.inference.chat;

/**
 * How many chat requests one API key, and one entity over all its keys, may have in flight or waiting at once, over
 * every served model; one more is refused as overloaded (429 with {@code Retry-After}).
 *
 * @param maxPerKey the most requests of one API key
 * @param maxPerEntity the most requests of one entity (tenant), all its keys together
 */
public record RequestLimits(int maxPerKey, int maxPerEntity) {

    /**
     * The defaults: a model runs 64 sequences and queues 128 requests, so one entity holds at most 128 of those 192
     * places and one key 96, leaving room for the others (docs/decisions.md).
     */
    public static final RequestLimits DEFAULTS = new RequestLimits(96, 128);

    /** Rejects non-positive bounds. */
    public RequestLimits {
        if (maxPerKey < 1 || maxPerEntity < 1) {
            throw new IllegalArgumentException("request limits must be positive, got maxPerKey=" + maxPerKey
                    + ", maxPerEntity=" + maxPerEntity);
        }
    }
}
