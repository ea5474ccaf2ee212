/** The training primitives' tables: the operation log behind durable futures, sessions, runs and samplers. */
package dev.crucible.adapters.persistence.primitives;
