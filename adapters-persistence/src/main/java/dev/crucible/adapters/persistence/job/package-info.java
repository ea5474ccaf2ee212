/** Training jobs, their inputs and events in PostgreSQL, and the row-locked job queue. */
package dev.crucible.adapters.persistence.job;
