package dev.crucible.server.cli;

import dev.crucible.server.client.ChatCommand;
import dev.crucible.server.client.CheckpointCommands;
import dev.crucible.server.client.FilesCommand;
import dev.crucible.server.client.JobsCommand;
import dev.crucible.server.client.TrainCommand;
import dev.crucible.server.client.UsageCommand;
import picocli.CommandLine.Command;

/** The top-level command: the server ({@code serve}, {@code keys}) and a client of any Crucible server. */
@Command(name = "crucible", mixinStandardHelpOptions = true, version = "crucible 0.1.0",
        description = "Self-hosted service for training and serving LLMs.",
        subcommands = {ServeCommand.class, KeysCommand.class, ModelsCommand.class, CheckpointCommands.class,
            FilesCommand.class, TrainCommand.class, JobsCommand.class, ChatCommand.class, UsageCommand.class})
public final class CrucibleCommand implements Runnable {

    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }
}
