/** What a client asks of a chat completion: vLLM's request fields as values, with their protocol defaults. */
package dev.crucible.application.inference.chat.ask;
