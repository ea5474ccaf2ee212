/** Chat completion requests as values (vLLM's request fields with protocol defaults) and their model-dependent limits. */
package dev.crucible.application.inference.chat;
