/** Datasets, their rows and sources, and checkpoint lineage in the {@code datasets} tables (V12), scoped by entity. */
package dev.crucible.adapters.persistence.dataset;
