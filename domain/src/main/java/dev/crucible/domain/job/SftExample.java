package dev.crucible.domain.job;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One line of an SFT dataset: a conversation whose last message is the assistant's, and the tools it was written
 * with. Messages and tools are the JSON objects as read (OpenAI chat format), in insertion order.
 *
 * @param line     the 1-based line of the JSONL file it came from, for error messages
 * @param messages at least one message, the last from the assistant
 * @param tools    the OpenAI function tools, empty when the line has none
 */
public record SftExample(int line, List<Map<String, Object>> messages, List<Map<String, Object>> tools) {

    public SftExample {
        if (line < 1) {
            throw new IllegalArgumentException("line must be >= 1, got " + line);
        }
        messages = List.copyOf(Objects.requireNonNull(messages, "messages"));
        tools = List.copyOf(Objects.requireNonNull(tools, "tools"));
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("messages must not be empty");
        }
    }
}
