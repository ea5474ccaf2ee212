/** The web console at {@code /console}: static files that call the public API with the user's key. */
package dev.crucible.adapters.http.console;
