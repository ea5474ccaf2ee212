/**
 * The {@code Idempotency-Key} header of creating routes: the key is claimed before the use case runs and the answer
 * recorded after, so a retry gets the first answer.
 */
package dev.crucible.adapters.http.idempotency;
