/** The real PostgreSQL that integration tests run against: one embedded server per test JVM, a database per caller. */
package dev.crucible.testsupport.database;
