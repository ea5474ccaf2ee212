/** Weave-compatible objects in PostgreSQL, and annotation specs read from them. */
package dev.crucible.adapters.persistence.object;
