/** Datasets: immutable snapshots of stored completions and their feedback, in SFT, preference or RL form. */
package dev.crucible.domain.dataset;
