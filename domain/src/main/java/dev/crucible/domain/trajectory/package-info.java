/** Scored rollouts as the ART client sends them, and the per-split aggregates computed from them. */
package dev.crucible.domain.trajectory;
