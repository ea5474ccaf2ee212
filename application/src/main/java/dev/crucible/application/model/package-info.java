/** Use cases over trained models, their checkpoints and logged trajectories, and the ports they need. */
package dev.crucible.application.model;
