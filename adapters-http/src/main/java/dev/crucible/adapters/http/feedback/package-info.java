/** Weave-style feedback routes. */
package dev.crucible.adapters.http.feedback;
