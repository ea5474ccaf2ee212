/** Usage in {@code completion_usage} and {@code training_usage}, summed per minute. */
package dev.crucible.adapters.persistence.usage;
