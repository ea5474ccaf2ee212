/** Feedback rows on traced objects, their refs and Weave-compatible validation, query and purge rules. */
package dev.crucible.domain.feedback;
