package dev.crucible.adapters.http.usage;

import dev.crucible.application.usage.QueryUsageUseCase;
import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.domain.usage.UsageBucket;
import dev.crucible.domain.usage.UsagePage;
import dev.crucible.domain.usage.UsageTotals;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /v1/organization/usage/completions}: the caller's entity's completion usage in OpenAI's usage API
 * shape, one page of time buckets. Fields a query does not group by are {@code null}, as OpenAI writes them.
 */
@Controller("/v1/organization/usage/completions")
@Secured(SecurityRule.IS_AUTHENTICATED)
@SecurityRequirement(name = "apiKey")
record UsageController(QueryUsageUseCase usage) {

    @Get
    @ExecuteOn(TaskExecutors.BLOCKING)
    @Operation(description = "Query: start_time (required, unix seconds), end_time, bucket_width (1m, 1h, 1d), "
            + "group_by (project_id, model, api_key_id, batch), project_ids, models, api_key_ids, limit, page; lists "
            + "repeated or as name[]=.")
    @ApiResponse(responseCode = "200", description = "One page of time buckets",
            content = @Content(mediaType = MediaType.APPLICATION_JSON,
                    schema = @Schema(ref = "#/components/schemas/UsagePage")))
    Map<String, Object> completions(@Parameter(hidden = true) Caller caller, HttpRequest<?> http) {
        UsagePage page = RefusalException.unwrap(usage.query(UsageParams.read(caller, http.getParameters().asMap())));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("object", "page");
        body.put("data", page.buckets().stream().map(UsageController::bucket).toList());
        body.put("has_more", page.nextPage().isPresent());
        body.put("next_page", page.nextPage().isPresent() ? UsageParams.nextPage(page.nextPage().getAsLong()) : null);
        return body;
    }

    private static Map<String, Object> bucket(UsageBucket bucket) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("object", "bucket");
        out.put("start_time", bucket.startTime());
        out.put("end_time", bucket.endTime());
        out.put("results", bucket.results().stream().map(UsageController::result).toList());
        return out;
    }

    private static Map<String, Object> result(UsageTotals totals) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("object", "organization.usage.completions.result");
        out.put("input_tokens", totals.inputTokens());
        out.put("output_tokens", totals.outputTokens());
        out.put("input_cached_tokens", totals.cachedTokens());
        out.put("input_audio_tokens", 0);
        out.put("output_audio_tokens", 0);
        out.put("num_model_requests", totals.modelRequests());
        out.put("project_id", totals.projectId().orElse(null));
        out.put("user_id", null);
        out.put("api_key_id", totals.apiKeyId().orElse(null));
        out.put("model", totals.model().orElse(null));
        out.put("batch", totals.batch().orElse(null));
        return out;
    }
}
