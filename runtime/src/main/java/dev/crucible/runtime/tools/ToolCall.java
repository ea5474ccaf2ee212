package dev.crucible.runtime.tools;

import java.util.HexFormat;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One tool call the model made: OpenAI's {@code {id, type: "function", function: {name, arguments}}}.
 *
 * @param id        {@code chatcmpl-tool-} and 32 random hex digits, as vLLM names calls
 * @param name      the function's name
 * @param arguments the arguments as a JSON string
 */
public record ToolCall(String id, String name, String arguments) {

    public ToolCall {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arguments, "arguments");
    }

    /** A call with a fresh id. */
    static ToolCall of(String name, String arguments) {
        return new ToolCall(newId(), name, arguments);
    }

    /** vLLM's {@code make_tool_call_id}: {@code chatcmpl-tool-} and a random UUID's 32 hex digits. */
    static String newId() {
        byte[] random = new byte[16];
        ThreadLocalRandom.current().nextBytes(random);
        return "chatcmpl-tool-" + HexFormat.of().formatHex(random);
    }
}
