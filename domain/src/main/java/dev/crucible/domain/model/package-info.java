/** Trained models, their checkpoints and how chat requests address them. */
package dev.crucible.domain.model;
