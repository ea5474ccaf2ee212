/**
 * JSON and numbers exactly as Python writes them, because Weave's digests and size limits, chat templates'
 * {@code tojson} and vLLM's tool-call text are defined by Python's output.
 */
package dev.crucible.kernel.python;
