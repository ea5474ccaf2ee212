package dev.crucible.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code crucible models list|create|delete}: the models a key can chat with, and trainable models. */
public final class ModelCommands {

    private ModelCommands() {
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "List the models this key can chat with: base models and trained models; with --trainable, "
                    + "your trainable models with the ids that train and checkpoints take.")
    public static final class List extends ClientCommand {

        @Option(names = "--trainable", description = "List your trainable models (id, name, latest step) instead.")
        boolean trainable;

        @Override
        int run(CrucibleClient client) {
            if (trainable) {
                return trainable(client);
            }
            JsonNode page = client.get("/v1/models");
            StringBuilder table = new StringBuilder(String.format("%-48s %-16s %s", "ID", "OWNED BY", "BASE"));
            for (JsonNode model : page.path("data")) {
                table.append(String.format("%n%-48s %-16s %s", model.path("id").asText(),
                        model.path("owned_by").asText(), model.path("root").asText()));
            }
            server.print(page, table.toString());
            return ExitCodes.OK;
        }

        private int trainable(CrucibleClient client) {
            ArrayNode all = CrucibleClient.json().createArrayNode();
            client.forEachItem("/v1/preview/models", null, all::add);
            StringBuilder table = new StringBuilder(String.format("%-36s  %-40s  %-16s  %s", "ID", "NAME", "BASE",
                    "LATEST STEP"));
            for (JsonNode model : all) {
                table.append(String.format("%n%-36s  %-40s  %-16s  %d", model.path("id").asText(),
                        model.path("entity").asText() + "/" + model.path("project").asText() + "/"
                                + model.path("name").asText(), model.path("base_model").asText(),
                        model.path("latest_step").asLong()));
            }
            server.print(all, table.toString());
            return ExitCodes.OK;
        }
    }

    @Command(name = "create", mixinStandardHelpOptions = true,
            description = "Create a trainable model (its step-0 checkpoint comes with it); prints its id.")
    public static final class Create extends ClientCommand {

        @Option(names = "--project", required = true, description = "Project the model belongs to.")
        String project;

        @Option(names = "--name", required = true, description = "Name, unique in the project.")
        String name;

        @Option(names = "--base-model", required = true, description = "A served base model (see `models list`).")
        String baseModel;

        @Option(names = "--entity", description = "Entity (default: the key's own).")
        String entity;

        @Option(names = "--return-existing", description = "Answer with the model of that name if it exists.")
        boolean returnExisting;

        @Override
        int run(CrucibleClient client) {
            ObjectNode body = CrucibleClient.json().createObjectNode();
            body.put("entity", entity).put("project", project).put("name", name).put("base_model", baseModel)
                    .put("return_existing", returnExisting);
            JsonNode model = client.post("/v1/preview/models", body);
            server.print(model, model.path("id").asText());
            return ExitCodes.OK;
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true,
            description = "Delete a trainable model with its checkpoints.")
    public static final class Delete extends ClientCommand {

        @Mixin
        ModelArgument model;

        @Override
        int run(CrucibleClient client) {
            JsonNode answer = client.delete(model.path(), null);
            server.print(answer, "deleted " + model.id);
            return ExitCodes.OK;
        }
    }
}
