package dev.crucible.application.inference.chat.ask;

import dev.crucible.kernel.invariant.NonNull;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One chat completion request, every field of vLLM's {@code ChatCompletionRequest} with the defaults vLLM resolves at
 * protocol level; defaults that depend on the model (temperature, top_p, …, max_tokens) stay empty for the use case to
 * resolve from the model's generation config. Built by the HTTP adapter after its protocol checks; immutable.
 *
 * @param model      the requested model name, empty for the default served model (absent, null or {@code ""})
 * @param messages   the conversation, JSON-shaped maps with {@code role}, {@code content} (a string, or
 *                   null; list-of-text content is already joined with {@code "\n"}) and any extra keys the client sent
 * @param sampling   how tokens are drawn
 * @param stopping   how long to generate and when to stop
 * @param logprobs   which log-probabilities to return
 * @param streaming  whether and how to stream
 * @param templating how the prompt is rendered
 * @param tools      tool schemas and the tool choice
 * @param output     how the answer is shaped
 * @param serving    scheduling, caching and pass-through fields
 */
public record ChatRequest(Optional<String> model, List<Map<String, Object>> messages, ChatSampling sampling,
        ChatStopping stopping, ChatLogprobs logprobs, ChatStreaming streaming, ChatTemplating templating,
        ChatTools tools, ChatOutput output, ChatServing serving) {

    public ChatRequest {
        NonNull.components(ChatRequest.class, model, messages, sampling, stopping, logprobs, streaming, templating,
                tools, output, serving);
        messages = JsonCopies.maps(messages);
    }

    /** A request for {@code messages} with every other field at its default. */
    public static ChatRequest of(List<Map<String, Object>> messages) {
        return new ChatRequest(Optional.empty(), messages, ChatSampling.defaults(), ChatStopping.defaults(),
                ChatLogprobs.defaults(), ChatStreaming.defaults(), ChatTemplating.defaults(), ChatTools.defaults(),
                ChatOutput.defaults(), ChatServing.defaults());
    }
}
