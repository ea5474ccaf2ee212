package dev.crucible.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code crucible checkpoints list|delete|download}: a trainable model's checkpoints. */
@Command(name = "checkpoints", mixinStandardHelpOptions = true, description = "A model's checkpoints.",
        subcommands = {CheckpointCommands.List.class, CheckpointCommands.Delete.class,
            CheckpointCommands.Download.class})
public final class CheckpointCommands {

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "List every checkpoint of a model (all pages), with its training metrics.")
    static final class List extends ClientCommand {

        @Mixin
        ModelArgument model;

        @Option(names = "--order", defaultValue = "asc", description = "asc (oldest first) or desc.")
        String order;

        @Override
        int run(CrucibleClient client) {
            ArrayNode all = CrucibleClient.json().createArrayNode();
            client.forEachItem(CrucibleClient.query(model.path() + "/checkpoints",
                    "order", order), null, all::add);
            StringBuilder table = new StringBuilder(String.format("%6s  %-36s  %-24s  %s", "STEP", "ID", "CREATED",
                    "METRICS"));
            for (JsonNode checkpoint : all) {
                table.append(String.format("%n%6d  %-36s  %-24s  %s", checkpoint.path("step").asLong(),
                        checkpoint.path("id").asText(), checkpoint.path("created_at").asText(),
                        checkpoint.path("metrics")));
            }
            server.print(all, table.toString());
            return ExitCodes.OK;
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete checkpoints by step.")
    static final class Delete extends ClientCommand {

        @Mixin
        ModelArgument model;

        @Option(names = "--steps", required = true, split = ",", description = "Steps to delete, e.g. 1,2,3.")
        long[] steps;

        @Override
        int run(CrucibleClient client) {
            ObjectNode body = CrucibleClient.json().createObjectNode();
            ArrayNode list = body.putArray("steps");
            for (long step : steps) {
                list.add(step);
            }
            JsonNode answer = client.delete(model.path() + "/checkpoints", body);
            server.print(answer, "deleted " + list.size() + " checkpoint(s)");
            return ExitCodes.OK;
        }
    }

    @Command(name = "download", mixinStandardHelpOptions = true,
            description = "Download a checkpoint's LoRA adapter as a PEFT folder in a zip archive.")
    static final class Download extends ClientCommand {

        @Mixin
        ModelArgument model;

        @Parameters(index = "1", paramLabel = "STEP", description = "The checkpoint's step.")
        long step;

        @Option(names = {"-o", "--output"}, description = "Archive to write (default: adapter-step<STEP>.zip).")
        Path output;

        @Override
        int run(CrucibleClient client) throws IOException {
            Path target = output != null ? output : Path.of("adapter-step" + step + ".zip");
            client.download(model.path() + "/checkpoints/" + step + "/adapter", target);
            server.out().println("wrote " + target);
            server.out().flush();
            return ExitCodes.OK;
        }
    }
}
