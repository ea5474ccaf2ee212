/** Request bodies: per-route size limits and the bound on body bytes in flight across all requests. */
package dev.crucible.adapters.http.body;
