/** Trajectory groups as jsonb, in ART's field names: the job queue and the trajectory log store them the same way. */
package dev.crucible.adapters.persistence.trajectory;
