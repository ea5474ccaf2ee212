/** OpenAI's stored-completions routes under {@code /v1/chat/completions}: list, get, messages, update, delete. */
package dev.crucible.adapters.http.completion;
