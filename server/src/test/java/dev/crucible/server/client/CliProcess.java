package dev.crucible.server.client;

import dev.crucible.server.support.ChildJvm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs {@code crucible ARGS} as its own process (this JVM's java and class path), as a script would. */
final class CliProcess {

    /** What one run printed and exited with. */
    record Result(int code, String out, String err) {
        @Override
        public String toString() {
            return "exit " + code + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
        }
    }

    private final Map<String, String> env;

    CliProcess(Map<String, String> env) {
        this.env = env;
    }

    /**
     * The java command line that runs {@code crucible} with {@code args}. A client command lives for a second or two,
     * so it starts as a short-lived tool would ({@link ChildJvm#QUICK_START}, and the client commands' class-data
     * archive).
     */
    static List<String> command(String... args) {
        List<String> command = ChildJvm.command(ChildJvm.CLIENT, ChildJvm.QUICK_START);
        command.add("dev.crucible.server.Crucible");
        command.addAll(List.of(args));
        return command;
    }

    Result run(String stdin, String... args) {
        try {
            Path out = Files.createTempFile("crucible-cli-", ".out");
            Path err = Files.createTempFile("crucible-cli-", ".err");
            ProcessBuilder builder = new ProcessBuilder(command(args)).redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            builder.environment().remove("CRUCIBLE_API_KEY");
            builder.environment().remove("CRUCIBLE_BASE_URL");
            builder.environment().putAll(env);
            Process process = builder.start();
            process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
            process.getOutputStream().close();
            if (!process.waitFor(3, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new AssertionError("crucible " + String.join(" ", args) + " did not end in 3 minutes");
            }
            Result result = new Result(process.exitValue(), Files.readString(out), Files.readString(err));
            Files.delete(out);
            Files.delete(err);
            return result;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
