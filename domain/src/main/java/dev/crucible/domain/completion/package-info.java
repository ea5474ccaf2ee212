/** Stored chat completions: what {@code store: true} keeps, its metadata's bounds, and the query that reads it back. */
package dev.crucible.domain.completion;
