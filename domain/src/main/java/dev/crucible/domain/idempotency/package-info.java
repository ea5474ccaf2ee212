/**
 * Idempotent creation: a client names a creating request with a key, and a retry with the same key and the same
 * request gets the first answer instead of creating a second thing.
 */
package dev.crucible.domain.idempotency;
