package dev.crucible.application.inference.chat;

import dev.crucible.kernel.invariant.NonNull;
import dev.crucible.runtime.structured.ConstraintBudgets;

/**
 * The server's settings for chat completions.
 *
 * @param disableAnyWhitespace vLLM's server-wide {@code --structured-outputs-config.disable_any_whitespace}: JSON
 *                             constraints (schemas, {@code json_object}, forced tool calls) allow no whitespace
 *                             between tokens unless a request sets its own {@code whitespace_pattern}
 * @param limits               the most requests one key and one entity may have in flight or waiting
 * @param requestTemplates     whether and how a request's own {@code chat_template} is rendered
 * @param structuredOutputs    what compiling a request's regex, schema or grammar, and parsing its output under a
 *                             grammar, may spend ({@code crucible.structured-outputs.max-*})
 */
public record ChatSettings(boolean disableAnyWhitespace, RequestLimits limits, RequestTemplates requestTemplates,
        ConstraintBudgets structuredOutputs) {

    /** Any whitespace in JSON, the default limits, request templates trusted within the default bounds. */
    public static final ChatSettings DEFAULTS = new ChatSettings(false, RequestLimits.DEFAULTS,
            RequestTemplates.DEFAULTS, ConstraintBudgets.DEFAULTS);

    public ChatSettings {
        NonNull.components(ChatSettings.class, limits, requestTemplates, structuredOutputs);
    }
}
