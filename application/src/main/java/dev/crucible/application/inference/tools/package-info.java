/** Tool calls in generated text: vLLM's hermes and llama3_json parsers, whole and streamed. */
package dev.crucible.application.inference.tools;
