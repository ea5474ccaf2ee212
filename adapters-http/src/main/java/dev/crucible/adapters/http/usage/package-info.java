/** The project header of chat completions, and {@code GET /v1/organization/usage/completions} and {@code /training}. */
package dev.crucible.adapters.http.usage;
