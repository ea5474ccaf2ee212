package dev.crucible.application.inference.chat.answer;

import java.util.Objects;

/** A tool call parsed from a finished choice: its id ({@code chatcmpl-tool-…}), function name and JSON arguments. */
public record ChatToolCall(String id, String name, String arguments) {

    public ChatToolCall {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arguments, "arguments");
    }
}
