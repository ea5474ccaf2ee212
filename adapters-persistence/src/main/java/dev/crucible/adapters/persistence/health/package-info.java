/** The database's part of the system check. */
package dev.crucible.adapters.persistence.health;
