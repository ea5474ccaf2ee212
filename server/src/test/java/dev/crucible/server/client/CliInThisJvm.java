package dev.crucible.server.client;

import dev.crucible.server.Crucible;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Runs {@code crucible ARGS} in this JVM, on the command line {@link Crucible#main} runs, for the tests of what a
 * client command does (it prints and exits the same): a JVM per command cost a second or more of CPU on the 2-core
 * machine. What a separate process adds (the environment, standard input, a terminal, {@code System.exit}) is
 * {@link CliProcess}'s to test. The server and key come where the environment's would: as the defaults of
 * {@code --base-url} and {@code --api-key}, which an argument still overrides.
 */
final class CliInThisJvm {

    private final Map<String, String> defaults;

    CliInThisJvm(String baseUrl, String apiKey) {
        this.defaults = Map.of("--base-url", baseUrl, "--api-key", apiKey);
    }

    CliProcess.Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine line = Crucible.commandLine().setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .setDefaultValueProvider(arg -> arg instanceof OptionSpec option ? defaults.get(option.longestName())
                        : null);
        int code = line.execute(args);
        return new CliProcess.Result(code, out.toString(), err.toString());
    }
}
