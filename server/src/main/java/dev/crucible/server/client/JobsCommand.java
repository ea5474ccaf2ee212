package dev.crucible.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code crucible jobs list}, {@code crucible jobs show|follow JOB_ID}. */
@Command(name = "jobs", mixinStandardHelpOptions = true, description = "Training jobs.",
        subcommands = {JobsCommand.List.class, JobsCommand.Show.class, JobsCommand.Follow.class})
public final class JobsCommand {

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List your training jobs, newest first.")
    static final class List extends ClientCommand {

        @Option(names = "--limit", defaultValue = "20", description = "At most this many (1 to 100, ${DEFAULT-VALUE}).")
        int limit;

        @Override
        int run(CrucibleClient client) {
            JsonNode page = client.get(CrucibleClient.query("/v1/preview/training-jobs", "limit",
                    String.valueOf(limit), "order", "desc"));
            StringBuilder table = new StringBuilder(String.format("%-36s  %-3s  %-9s  %-36s  %s", "ID", "TYPE",
                    "STATUS", "MODEL", "CREATED"));
            for (JsonNode job : page.path("data")) {
                table.append(String.format("%n%-36s  %-3s  %-9s  %-36s  %s", job.path("id").asText(),
                        job.path("type").asText(), job.path("status").asText(), job.path("model_id").asText(),
                        job.path("created_at").asText()));
            }
            server.print(page, table.toString());
            return ExitCodes.OK;
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "Show a job's status.")
    static final class Show extends ClientCommand {

        @Parameters(paramLabel = "JOB_ID", description = "The job's id.")
        String jobId;

        @Override
        int run(CrucibleClient client) {
            JsonNode job = client.get("/v1/preview/training-jobs/" + Paths.segment(jobId));
            server.print(job, String.format("%s  %s  %s  model %s%s", job.path("id").asText(),
                    job.path("type").asText(), job.path("status").asText(), job.path("model_id").asText(),
                    job.path("result_step").isNumber() ? "  step " + job.path("result_step").asLong() : ""));
            return ExitCodes.OK;
        }
    }

    @Command(name = "follow", mixinStandardHelpOptions = true,
            description = "Follow a job until it ends, with a progress bar on a terminal and plain lines otherwise; "
                    + "exits 0 when it completed, 1 when it failed or was cancelled.")
    static final class Follow extends ClientCommand {

        @Mixin
        FollowOptions follow;

        @Parameters(paramLabel = "JOB_ID", description = "The job's id.")
        String jobId;

        @Override
        int run(CrucibleClient client) throws InterruptedException {
            return follow.follow(client, jobId, server.out());
        }
    }
}
