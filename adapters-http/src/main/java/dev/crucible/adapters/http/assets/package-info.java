/** Static files the server serves from its class path (its own pages, webjars' scripts), read once at start. */
package dev.crucible.adapters.http.assets;
