/**
 * The Tinker training API under {@code /api/v1} (JSON profile): bootstrap and sessions, training runs and their
 * sequenced operations, and futures answered from the operation log. Bodies are decoded into the training primitives'
 * values here; the wire reference is docs/api.md's "Tinker" section.
 */
package dev.crucible.adapters.http.tinker;
