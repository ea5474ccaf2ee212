package dev.crucible.server.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The options every client command shares: which server, which key, and whether to print the server's JSON as
 * it came. The key is best given through {@code CRUCIBLE_API_KEY}: a command-line argument shows in {@code ps}.
 */
public final class ServerOptions {

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--base-url", defaultValue = "${env:CRUCIBLE_BASE_URL:-http://127.0.0.1:8000}",
            description = "The server (default: $CRUCIBLE_BASE_URL, else ${DEFAULT-VALUE}).")
    String baseUrl;

    @Option(names = "--api-key", defaultValue = "${env:CRUCIBLE_API_KEY}",
            description = "The API key (default: $CRUCIBLE_API_KEY).")
    String apiKey;

    @Option(names = "--json", description = "Print the server's JSON answer instead of a summary.")
    boolean json;

    /** A client for the chosen server; a missing key is a usage error. */
    public CrucibleClient client() {
        if (apiKey == null || apiKey.isBlank()) {
            throw usageError("no API key: set CRUCIBLE_API_KEY or pass --api-key");
        }
        return new CrucibleClient(baseUrl, apiKey);
    }

    /** A usage error of the command these options belong to: picocli prints {@code message} and the command's usage. */
    ParameterException usageError(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    public PrintWriter out() {
        return spec.commandLine().getOut();
    }

    /** Prints {@code answer} as indented JSON when {@code --json} was given, else {@code summary}. */
    public void print(JsonNode answer, String summary) {
        out().println(json ? pretty(answer) : summary);
        out().flush();
    }

    private static String pretty(JsonNode node) {
        try {
            return CrucibleClient.json().writerWithDefaultPrettyPrinter().writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
