package dev.crucible.server.cli;

import picocli.CommandLine.Command;

/** The top-level command. */
@Command(name = "crucible", mixinStandardHelpOptions = true, version = "crucible 0.1.0",
        description = "Self-hosted service for training and serving LLMs.",
        subcommands = {ServeCommand.class, KeysCommand.class, ModelsCommand.class})
public final class CrucibleCommand implements Runnable {

    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }
}
