/** Idempotency keys in {@code idempotency_keys}. */
package dev.crucible.adapters.persistence.idempotency;
