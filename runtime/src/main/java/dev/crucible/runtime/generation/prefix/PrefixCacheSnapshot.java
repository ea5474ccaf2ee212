package dev.crucible.runtime.generation.prefix;

/**
 * The prefix cache of one generator, for metrics: counts since start and what is held now.
 *
 * @param queriedTokens prompt tokens of the requests that looked the cache up (vLLM's {@code prefix_cache_queries})
 * @param hitTokens     of those, the tokens restored from the cache instead of forwarded ({@code prefix_cache_hits})
 * @param hits          lookups that restored at least one block
 * @param heldTokens    tokens held now, over all prefixes
 * @param heldPrefixes  prefixes (caches) held now
 * @param budgetTokens  the bound on {@code heldTokens}; 0 when caching is off
 * @param evictions     prefixes dropped, least recently used first, to stay within the bounds
 */
public record PrefixCacheSnapshot(long queriedTokens, long hitTokens, long hits, int heldTokens, int heldPrefixes,
        int budgetTokens, long evictions) {
}
