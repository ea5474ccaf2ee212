/** API keys in PostgreSQL. */
package dev.crucible.adapters.persistence.tenancy;
