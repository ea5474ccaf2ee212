/** Feedback rows in PostgreSQL and the translation of Weave's query language into SQL. */
package dev.crucible.adapters.persistence.feedback;
