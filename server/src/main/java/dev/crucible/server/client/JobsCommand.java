package dev.crucible.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code crucible jobs show|follow JOB_ID}. */
@Command(name = "jobs", mixinStandardHelpOptions = true, description = "Training jobs.",
        subcommands = {JobsCommand.Show.class, JobsCommand.Follow.class})
public final class JobsCommand {

    @Command(name = "show", mixinStandardHelpOptions = true, description = "Show a job's status.")
    static final class Show implements Callable<Integer> {

        @Mixin
        ServerOptions server;

        @Parameters(paramLabel = "JOB_ID", description = "The job's id.")
        String jobId;

        @Override
        public Integer call() {
            JsonNode job = server.client().get("/v1/preview/training-jobs/" + Paths.segment(jobId));
            server.print(job, String.format("%s  %s  %s  model %s%s", job.path("id").asText(),
                    job.path("type").asText(), job.path("status").asText(), job.path("model_id").asText(),
                    job.path("result_step").isNumber() ? "  step " + job.path("result_step").asLong() : ""));
            return ExitCodes.OK;
        }
    }

    @Command(name = "follow", mixinStandardHelpOptions = true,
            description = "Follow a job until it ends, with a progress bar on a terminal and plain lines otherwise; "
                    + "exits 0 when it completed, 1 when it failed or was cancelled.")
    static final class Follow implements Callable<Integer> {

        @Mixin
        ServerOptions server;

        @Mixin
        FollowOptions follow;

        @Parameters(paramLabel = "JOB_ID", description = "The job's id.")
        String jobId;

        @Override
        public Integer call() throws InterruptedException {
            return follow.follow(server.client(), jobId, server.out());
        }
    }
}
