/** Completion usage in {@code completion_usage}, summed per minute. */
package dev.crucible.adapters.persistence.usage;
