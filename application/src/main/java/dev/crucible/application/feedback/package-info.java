/** Feedback use cases (create, replace, query, purge), their ports, and Weave's lookup and reaction rules. */
package dev.crucible.application.feedback;
