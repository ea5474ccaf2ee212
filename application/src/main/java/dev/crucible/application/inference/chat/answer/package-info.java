/** What a chat completion answers: the whole completion or its streamed deltas, with choices, finish reasons, logprobs, tool calls and usage. */
package dev.crucible.application.inference.chat.answer;
