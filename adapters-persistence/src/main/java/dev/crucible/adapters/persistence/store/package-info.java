/** Shared plumbing of the persistence adapter: SQL over transaction-aware JDBC and JSON columns. */
package dev.crucible.adapters.persistence.store;
