/**
 * Request bodies: per-route size limits, the bytes received in flight (over all requests and per API key), uploads at
 * once per key and the read timeout, counted on the connection as bytes arrive; and parsing a body into plain JSON
 * values under the JSON limits, refusing strings PostgreSQL cannot store.
 */
package dev.crucible.adapters.http.body;
