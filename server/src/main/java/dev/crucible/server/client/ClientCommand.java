package dev.crucible.server.client;

import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;

/** A client command: the server options every one shares, and its work done with a client of that server. */
abstract class ClientCommand implements Callable<Integer> {

    @Mixin
    ServerOptions server;

    @Override
    public final Integer call() throws Exception {
        return run(server.client());
    }

    /** Does the command's work against the chosen server; returns its exit code ({@link ExitCodes}). */
    abstract int run(CrucibleClient client) throws Exception;
}
