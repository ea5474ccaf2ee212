package dev.crucible.server.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns a client command's failure into one line on standard error and an exit code from {@link ExitCodes}: the
 * server's refusal with its status, or what could not be reached or read. Anything else is a bug and keeps its trace.
 */
public final class ClientErrors implements IExecutionExceptionHandler {

    @Override
    public int handleExecutionException(Exception e, CommandLine command, ParseResult parsed) throws Exception {
        String name = command.getCommandSpec().qualifiedName();
        if (e instanceof ApiException api) {
            command.getErr().println(name + ": the server answered " + api.status() + ": " + api.getMessage());
            return ExitCodes.API_ERROR;
        }
        if (e instanceof UncheckedIOException || e instanceof IOException) {
            Throwable cause = e instanceof UncheckedIOException u ? u.getCause() : e;
            command.getErr().println(name + ": " + (e.getMessage() != null ? e.getMessage() : cause));
            return ExitCodes.IO_ERROR;
        }
        throw e;
    }
}
