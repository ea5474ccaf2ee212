package dev.crucible.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code crucible chat MODEL}: a conversation on standard input, one user turn per line, each answer streamed
 * token by token as it is generated. The whole conversation is sent each turn, as chat completions expect.
 */
@Command(name = "chat", mixinStandardHelpOptions = true,
        description = "Chat with a model: each line of standard input is a user turn; answers stream as generated.")
public final class ChatCommand extends ClientCommand {

    @Parameters(paramLabel = "MODEL", description = "A model id from `crucible models list`.")
    String model;

    @Option(names = "--system", description = "A system message to start the conversation with.")
    String system;

    @Option(names = "--max-tokens", description = "At most this many tokens per answer.")
    Integer maxTokens;

    @Option(names = "--temperature", description = "Sampling temperature (the model's default when left out).")
    Double temperature;

    @Override
    int run(CrucibleClient client) throws IOException {
        PrintWriter out = server.out();
        Console console = System.console();
        boolean terminal = console != null && console.isTerminal();
        ArrayNode messages = CrucibleClient.json().createArrayNode();
        if (system != null) {
            messages.addObject().put("role", "system").put("content", system);
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = prompt(in, out, terminal); line != null; line = prompt(in, out, terminal)) {
            if (line.isBlank()) {
                continue;
            }
            messages.addObject().put("role", "user").put("content", line);
            StringBuilder answer = new StringBuilder();
            client.stream("/v1/chat/completions", request(messages), chunk -> {
                String delta = content(chunk);
                answer.append(delta);
                out.print(delta);
                out.flush();
            });
            out.println();
            out.flush();
            messages.addObject().put("role", "assistant").put("content", answer.toString());
        }
        return ExitCodes.OK;
    }

    private ObjectNode request(ArrayNode messages) {
        ObjectNode body = CrucibleClient.json().createObjectNode();
        body.put("model", model).put("stream", true).set("messages", messages);
        if (maxTokens != null) {
            body.put("max_tokens", maxTokens);
        }
        if (temperature != null) {
            body.put("temperature", temperature);
        }
        return body;
    }

    private static String prompt(BufferedReader in, PrintWriter out, boolean terminal) throws IOException {
        if (terminal) {
            out.print("> ");
            out.flush();
        }
        return in.readLine();
    }

    /** The text a streamed chunk adds to the answer (empty for a role-only or usage chunk). */
    private static String content(JsonNode chunk) {
        return chunk.path("choices").path(0).path("delta").path("content").asText("");
    }
}
