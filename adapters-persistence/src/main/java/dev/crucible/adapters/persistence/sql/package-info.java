/** How every store talks to PostgreSQL: plain SQL over transaction-aware JDBC, and JSON text for jsonb columns. */
package dev.crucible.adapters.persistence.sql;
