/**
 * Stored completions: keeping a completion off the answer's path (a bounded queue, batched writes committed at least
 * once a second), and reading, re-tagging and deleting an entity's completions through the store port.
 */
package dev.crucible.application.completion;
