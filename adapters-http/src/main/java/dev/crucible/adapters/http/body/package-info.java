/**
 * Request bodies: per-route size limits, the bound on body bytes in flight across all requests, and parsing a body
 * into plain JSON values under the JSON limits, refusing strings PostgreSQL cannot store.
 */
package dev.crucible.adapters.http.body;
