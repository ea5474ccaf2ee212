/** Reward models: labelled (prompt, answer) examples, the fitted model's identity, version and held-out metrics. */
package dev.crucible.domain.reward;
