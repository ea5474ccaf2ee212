/** The chat-completion use case: model resolution, prompt rendering, generation and the result. */
package dev.crucible.application.inference.completion;
