/** Chat completion requests read from JSON with vLLM's protocol checks, messages and order. */
package dev.crucible.adapters.http.inference;
