/** Stored chat completions in {@code stored_completions}, scoped by entity, listed in storing order. */
package dev.crucible.adapters.persistence.completion;
