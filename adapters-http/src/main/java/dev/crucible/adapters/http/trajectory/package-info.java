/** Trajectory groups as the ART client serializes them, read into domain values. */
package dev.crucible.adapters.http.trajectory;
