package dev.crucible.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code crucible jobs show|follow JOB_ID}. */
@Command(name = "jobs", mixinStandardHelpOptions = true, description = "Training jobs.",
        subcommands = {JobsCommand.Show.class, JobsCommand.Follow.class})
public final class JobsCommand {

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
