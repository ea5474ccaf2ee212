package dev.crucible.server.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.time.Duration;
import java.time.Instant;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code crucible usage}: the key's entity's completion tokens over a recent window, through OpenAI's usage API
 * ({@code GET /v1/organization/usage/completions}), every page read, one row per bucket and group.
 */
@Command(name = "usage", mixinStandardHelpOptions = true,
        description = "Completion tokens of your entity over the last --days days, by bucket and by project, model "
                + "or key.")
public final class UsageCommand extends ClientCommand {

    @Option(names = "--days", defaultValue = "7", description = "How many days back to read (${DEFAULT-VALUE}).")
    int days;

    @Option(names = "--bucket", defaultValue = "1d", description = "Bucket width: 1m, 1h or 1d (${DEFAULT-VALUE}).")
    String bucket;

    @Option(names = "--group-by", defaultValue = "project_id",
            description = "Group by project_id, model or api_key_id, comma-separated (${DEFAULT-VALUE}).")
    String groupBy;

    @Option(names = "--project", description = "Only this project (<team>/<project>).")
    String project;

    @Spec
    CommandSpec spec;

    @Override
    int run(CrucibleClient client) {
        if (days < 1) {
            throw new ParameterException(spec.commandLine(), "--days must be at least 1, got " + days);
        }
        long start = Instant.now().minus(Duration.ofDays(days)).getEpochSecond();
        ArrayNode buckets = CrucibleClient.json().createArrayNode();
        String page = null;
        do {
            JsonNode answer = client.get(CrucibleClient.query("/v1/organization/usage/completions",
                    "start_time", Long.toString(start), "bucket_width", bucket, "group_by", groupBy,
                    "project_ids", project, "page", page));
            answer.path("data").forEach(buckets::add);
            page = answer.path("has_more").asBoolean() ? answer.path("next_page").asText() : null;
        } while (page != null);
        StringBuilder table = new StringBuilder(String.format("%-20s  %-40s  %10s  %10s  %10s  %8s", "BUCKET START",
                "GROUP", "INPUT", "CACHED", "OUTPUT", "REQUESTS"));
        long input = 0;
        long output = 0;
        for (JsonNode b : buckets) {
            for (JsonNode r : b.path("results")) {
                input += r.path("input_tokens").asLong();
                output += r.path("output_tokens").asLong();
                table.append(String.format("%n%-20s  %-40s  %10d  %10d  %10d  %8d",
                        Instant.ofEpochSecond(b.path("start_time").asLong()), group(r),
                        r.path("input_tokens").asLong(), r.path("input_cached_tokens").asLong(),
                        r.path("output_tokens").asLong(), r.path("num_model_requests").asLong()));
            }
        }
        table.append(String.format("%ntotal: %d input tokens, %d output tokens", input, output));
        server.print(buckets, table.toString());
        return ExitCodes.OK;
    }

    /** The grouped fields of a result, those not grouped by being null. */
    private static String group(JsonNode result) {
        StringBuilder out = new StringBuilder();
        for (String field : new String[] {"project_id", "model", "api_key_id"}) {
            if (!result.path(field).isNull() && !result.path(field).isMissingNode()) {
                out.append(out.isEmpty() ? "" : " ").append(result.path(field).asText());
            }
        }
        return out.isEmpty() ? "(all)" : out.toString();
    }
}
