/**
 * API keys and tenancy: every key belongs to one entity, and an entity sees only its own data; and the rule that
 * entity, project and model names follow, since they are segments of the addresses tenants are told apart by.
 */
package dev.crucible.domain.tenancy;
