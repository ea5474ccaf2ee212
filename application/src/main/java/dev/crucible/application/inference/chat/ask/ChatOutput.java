package dev.crucible.application.inference.chat.ask;

import java.util.Objects;
import java.util.Optional;

/**
 * How a chat request's answer is shaped.
 *
 * @param echo                       prepend the last message's content when its role is the response role
 * @param includeReasoning           true by default (matters only with a reasoning parser)
 * @param skipSpecialTokens          true by default
 * @param spacesBetweenSpecialTokens true by default
 * @param responseFormat             empty when not sent
 * @param structuredOutputs          empty when not sent
 */
public record ChatOutput(boolean echo, boolean includeReasoning, boolean skipSpecialTokens,
        boolean spacesBetweenSpecialTokens, Optional<ResponseFormat> responseFormat,
        Optional<StructuredOutputs> structuredOutputs) {

    public ChatOutput {
        Objects.requireNonNull(responseFormat, "responseFormat");
        Objects.requireNonNull(structuredOutputs, "structuredOutputs");
    }

    /** Plain text, special tokens skipped, no echo. */
    public static ChatOutput defaults() {
        return new ChatOutput(false, true, true, true, Optional.empty(), Optional.empty());
    }
}
