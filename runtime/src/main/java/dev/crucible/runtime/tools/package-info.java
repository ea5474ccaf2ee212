/** Tool calls in generated text: vLLM's hermes and llama3_json parsers and its forced (named, required) calls. */
package dev.crucible.runtime.tools;
