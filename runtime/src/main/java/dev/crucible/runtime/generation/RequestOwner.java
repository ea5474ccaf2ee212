package dev.crucible.runtime.generation;

import java.util.Objects;

/**
 * Whom a request is for, as the generator's fair share sees it: waiting requests of equal priority take turns by
 * entity, then by key within the entity, so one tenant's burst does not starve another.
 *
 * @param entity the tenant; requests of one entity share its turn
 * @param key the API key (its id, never the secret) within the entity
 */
public record RequestOwner(String entity, String key) {

    /** The owner of requests that name none (tests, internal callers): one shared turn. */
    public static final RequestOwner ANONYMOUS = new RequestOwner("", "");

    /** Rejects nulls. */
    public RequestOwner {
        Objects.requireNonNull(entity, "entity");
        Objects.requireNonNull(key, "key");
    }
}
