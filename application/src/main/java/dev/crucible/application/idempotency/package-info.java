/**
 * Idempotency at the use-case edge: a creating request with a key runs once; a retry gets the first answer.
 * Keys are kept per entity and per kind of creation, in the store, for a retention the operator sets.
 */
package dev.crucible.application.idempotency;
