package dev.crucible.server.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code crucible train sft|rl}: creates a training job from local files, and follows it with {@code --follow}. */
@Command(name = "train", mixinStandardHelpOptions = true, description = "Start training jobs.",
        subcommands = {TrainCommand.Sft.class, TrainCommand.Rl.class})
public final class TrainCommand {

    /** A command that creates a job; what both job kinds take: the model, configuration keys, and whether to follow. */
    abstract static class JobCommand extends ClientCommand {

        @Option(names = "--model", required = true, description = "The trainable model's id.")
        String modelId;

        @Option(names = "--config", paramLabel = "KEY=VALUE",
                description = "A configuration key (repeatable); VALUE is read as JSON when it parses, else as text. "
                        + "SFT: batch_size, learning_rate, assistant_turns. RL: ART's experimental_config keys.")
        Map<String, String> config = new LinkedHashMap<>();

        @Option(names = "--follow", description = "Follow the job until it ends (exit 1 when it fails).")
        boolean follow;

        @Mixin
        FollowOptions following;

        ObjectNode configNode() {
            ObjectNode node = CrucibleClient.json().createObjectNode();
            config.forEach((key, value) -> node.set(key, jsonOrText(value)));
            return node;
        }

        /** Prints the job's id (or JSON); with {@code --follow}, follows it and exits with its outcome. */
        int started(CrucibleClient client, JsonNode job) throws InterruptedException {
            server.print(job, job.path("id").asText());
            return follow ? following.follow(client, job.path("id").asText(), server.out()) : ExitCodes.OK;
        }

        private static JsonNode jsonOrText(String value) {
            try {
                return CrucibleClient.json().readTree(value);
            } catch (JsonProcessingException e) {
                return CrucibleClient.json().getNodeFactory().textNode(value);
            }
        }
    }

    @Command(name = "sft", mixinStandardHelpOptions = true,
            description = "Supervised fine-tuning on a JSONL file of chats ({messages, tools?} per line): uploads it, "
                    + "then creates the job; prints the job id.")
    static final class Sft extends JobCommand {

        @Option(names = "--data", required = true, description = "The local JSONL file of chats.")
        Path data;

        @Override
        int run(CrucibleClient client) throws IOException, InterruptedException {
            String fileId = client.upload("/v1/files", "fine-tune", data).path("id").asText();
            ObjectNode body = CrucibleClient.json().createObjectNode();
            body.put("model_id", modelId).put("training_data_url", fileId).set("config", configNode());
            return started(client, client.post("/v1/preview/sft-training-jobs", body));
        }
    }

    @Command(name = "rl", mixinStandardHelpOptions = true,
            description = "Reinforcement learning from scored trajectory groups (one ART TrajectoryGroup as JSON per "
                    + "line); prints the job id.")
    static final class Rl extends JobCommand {

        @Option(names = "--groups", required = true, description = "The local JSONL file of trajectory groups.")
        Path groups;

        @Override
        int run(CrucibleClient client) throws IOException, InterruptedException {
            ObjectNode body = CrucibleClient.json().createObjectNode();
            body.put("model_id", modelId);
            body.set("trajectory_groups", readGroups());
            body.set("experimental_config", configNode());
            return started(client, client.post("/v1/preview/training-jobs", body));
        }

        private ArrayNode readGroups() throws IOException {
            ArrayNode out = CrucibleClient.json().createArrayNode();
            try (BufferedReader reader = Files.newBufferedReader(groups, StandardCharsets.UTF_8)) {
                int number = 0;
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    number++;
                    if (!line.isBlank()) {
                        out.add(group(line, number));
                    }
                }
            }
            if (out.isEmpty()) {
                throw server.usageError("--groups " + groups + " holds no trajectory group");
            }
            return out;
        }

        private JsonNode group(String line, int number) {
            try {
                JsonNode group = CrucibleClient.json().readTree(line);
                if (group.isObject()) {
                    return group;
                }
            } catch (JsonProcessingException e) {
                // reported below with the line number
            }
            throw server.usageError("--groups " + groups + " line " + number
                    + ": not a JSON object (one trajectory group per line)");
        }
    }
}
