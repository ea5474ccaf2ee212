/** Authentication by API key, and the authenticated caller as a controller argument. */
package dev.crucible.adapters.http.auth;
