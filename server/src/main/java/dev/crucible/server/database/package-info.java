/** The embedded PostgreSQL used when no database URL is configured. */
package dev.crucible.server.database;
