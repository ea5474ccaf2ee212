/** Models, checkpoints and logged trajectories in PostgreSQL. */
package dev.crucible.adapters.persistence.model;
