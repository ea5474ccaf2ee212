package dev.crucible.runtime.tools;

import java.util.List;
import java.util.Objects;

/**
 * What one generation delta becomes once tool calls are taken out of it.
 *
 * @param content the plain text to stream, possibly empty
 * @param calls   the tool-call pieces to stream, possibly none
 */
public record ToolStreamDelta(String content, List<ToolCallDelta> calls) {

    public ToolStreamDelta {
        Objects.requireNonNull(content, "content");
        calls = List.copyOf(calls);
    }
}
