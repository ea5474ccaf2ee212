/**
 * Reward models: fitting one from labelled examples (whatever feeds them) under bounds, its held-out metrics on a
 * seeded split, versions per entity, and scoring (prompt, answer) pairs; the fitting and scoring engines are ports.
 */
package dev.crucible.application.reward;
