/** API keys and tenancy: every key belongs to one entity, and an entity sees only its own data. */
package dev.crucible.domain.tenancy;
