/** Datasets: building immutable snapshots from stored completions and their feedback, and the lineage they give. */
package dev.crucible.application.dataset;
