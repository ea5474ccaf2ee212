/**
 * JSON and numbers exactly as Python writes them, because Weave's digests and size limits, chat templates'
 * {@code tojson} and vLLM's tool-call text are defined by Python's output; and Python's truth values, by which vLLM
 * tests request fields.
 */
package dev.crucible.kernel.python;
