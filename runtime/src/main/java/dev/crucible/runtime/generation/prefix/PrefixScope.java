package dev.crucible.runtime.generation.prefix;

import dev.crucible.engine.spi.LoraAdapter;
import java.util.Objects;
import java.util.Optional;

/**
 * Whose cached prompt prefixes a request may reuse: only those of the same entity, the same {@code cache_salt} (or
 * none) and the same LoRA adapter (by identity; null for the base model). Keys and values computed with another
 * adapter differ, and one tenant must never learn from timing whether another sent a prompt.
 *
 * @param entity    the tenant (the entity of the request's owner)
 * @param cacheSalt the request's {@code cache_salt}, if any
 * @param adapter   the adapter the request runs with, or null
 */
public record PrefixScope(String entity, Optional<String> cacheSalt, LoraAdapter adapter) {

    /** Rejects a null entity or salt. */
    public PrefixScope {
        Objects.requireNonNull(entity, "entity");
        Objects.requireNonNull(cacheSalt, "cacheSalt");
    }

    /** A 64-bit seed for the block hash chain, so equal prompts of different scopes hash apart. */
    long seed() {
        long h = 0x9E3779B97F4A7C15L;
        h = PrefixBlocks.mix(h, entity.hashCode());
        h = PrefixBlocks.mix(h, cacheSalt.map(s -> s.hashCode() + 1L).orElse(0L));
        return PrefixBlocks.mix(h, System.identityHashCode(adapter));
    }
}
