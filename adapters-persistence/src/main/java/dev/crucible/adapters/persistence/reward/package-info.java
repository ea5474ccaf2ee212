/** Fitted reward models and their artifacts in PostgreSQL, versioned per entity and name. */
package dev.crucible.adapters.persistence.reward;
