/** The project header of chat completions and {@code GET /v1/organization/usage/completions}. */
package dev.crucible.adapters.http.usage;
