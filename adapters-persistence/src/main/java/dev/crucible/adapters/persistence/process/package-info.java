/** The processes sharing the database ({@code crucible_processes}) and the catalog changes they follow. */
package dev.crucible.adapters.persistence.process;
