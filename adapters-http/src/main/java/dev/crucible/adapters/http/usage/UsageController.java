package dev.crucible.adapters.http.usage;

import dev.crucible.application.usage.QueryTrainingUsageUseCase;
import dev.crucible.application.usage.QueryUsageUseCase;
import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.domain.tenancy.Caller;
import io.micronaut.http.HttpRequest;
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

/**
 * {@code GET /v1/organization/usage/completions}: the caller's entity's completion usage in OpenAI's usage API
 * shape, one page of time buckets ({@link UsagePageView}); {@code GET /v1/organization/usage/training}: its training
 * usage (tokens trained and scored by Tinker's primitives), with the same parameters, paging and buckets.
 */
@Controller("/v1/organization/usage")
@Secured(SecurityRule.IS_AUTHENTICATED)
@SecurityRequirement(name = "apiKey")
record UsageController(QueryUsageUseCase usage, QueryTrainingUsageUseCase training) {

    private static final String QUERY = "Query: start_time (required, unix seconds), end_time, bucket_width (1m, 1h, "
            + "1d), group_by (project_id, model, api_key_id, batch), project_ids, models, api_key_ids, limit, page; "
            + "lists repeated or as name[]=.";

    @Get("/completions")
    @ExecuteOn(TaskExecutors.BLOCKING)
    @Operation(description = QUERY)
    @ApiResponse(responseCode = "200", description = "One page of time buckets",
            content = @Content(schema = @Schema(ref = "#/components/schemas/UsagePage")))
    UsagePageView<UsagePageView.Result> completions(@Parameter(hidden = true) Caller caller, HttpRequest<?> http) {
        return UsagePageView.of(RefusalException.unwrap(usage.query(UsageParams.read(caller,
                http.getParameters().asMap()))), UsagePageView.Result::of);
    }

    @Get("/training")
    @ExecuteOn(TaskExecutors.BLOCKING)
    @Operation(description = QUERY + " Results: trained_tokens, forward_tokens, num_operations.")
    @ApiResponse(responseCode = "200", description = "One page of time buckets of training usage")
    UsagePageView<UsagePageView.TrainingResult> training(@Parameter(hidden = true) Caller caller,
            HttpRequest<?> http) {
        return UsagePageView.of(RefusalException.unwrap(training.query(UsageParams.read(caller,
                http.getParameters().asMap()))), UsagePageView.TrainingResult::of);
    }
}
