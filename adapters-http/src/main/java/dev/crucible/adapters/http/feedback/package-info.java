/**
 * Weave-style feedback routes, and reading their bodies (create, replace, query with its filter expression, purge)
 * into domain values with Weave's messages.
 */
package dev.crucible.adapters.http.feedback;
