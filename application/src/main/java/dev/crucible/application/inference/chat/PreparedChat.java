package dev.crucible.application.inference.chat;

import dev.crucible.application.inference.chat.ask.ChatRequest;
import dev.crucible.runtime.generation.GenerationRequest;
import dev.crucible.runtime.tools.ToolCalling;
import java.util.Objects;
import java.util.Optional;

/**
 * A chat request that passed every check and is ready to generate.
 *
 * @param model the model to run and the name to report
 * @param request the checked request
 * @param generation the prompt ids and sampling parameters for the generator, without the checkpoint's adapter,
 *                   which is leased only when generation starts
 * @param toolCalling how to find tool calls in the output; empty when the output is never parsed for them
 * @param arrivedNanos {@link System#nanoTime()} when the request arrived, for its latencies
 */
record PreparedChat(ChatModelResolver.Resolved model, ChatRequest request, GenerationRequest generation,
        Optional<ToolCalling> toolCalling, long arrivedNanos) {

    PreparedChat {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(generation, "generation");
        Objects.requireNonNull(toolCalling, "toolCalling");
    }
}
