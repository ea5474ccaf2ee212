/** The chat-completion use case: the request's checks, model resolution, prompt rendering, admission, generation and the result. */
package dev.crucible.application.inference.chat;
