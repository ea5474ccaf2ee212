package dev.crucible.adapters.http.reward;

import io.micronaut.http.annotation.RequestBean;
import dev.crucible.adapters.http.paging.PageQuery;
import dev.crucible.adapters.http.body.JsonBody;
import dev.crucible.adapters.http.idempotency.IdempotentCreation;
import dev.crucible.adapters.http.idempotency.RequestFingerprint;
import dev.crucible.adapters.http.paging.PageView;
import dev.crucible.application.dataset.DatasetRewardExamples;
import dev.crucible.application.reward.DeleteRewardModelUseCase;
import dev.crucible.application.reward.FitRewardModelUseCase;
import dev.crucible.application.reward.GetRewardModelUseCase;
import dev.crucible.application.reward.ListRewardModelsUseCase;
import dev.crucible.application.reward.ScoreRewardUseCase;
import dev.crucible.domain.idempotency.IdempotencyKey;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.RefusalException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import java.io.InputStream;

/**
 * Reward models of the caller's entity: a fit runs once per {@code Idempotency-Key}, off the event loop (the use case
 * hands it to threads of its own); another entity's model is 404 on every route.
 */
@Controller("/v1/reward-models")
@Secured(SecurityRule.IS_AUTHENTICATED)
@SecurityRequirement(name = "apiKey")
@ExecuteOn(TaskExecutors.BLOCKING)
record RewardModelController(JsonBody json, IdempotentCreation idempotent, FitRewardModelUseCase fit,
        ScoreRewardUseCase score, ListRewardModelsUseCase list, GetRewardModelUseCase get,
        DeleteRewardModelUseCase delete, DatasetRewardExamples datasets) {

    @RequestBody(required = true,
            content = @Content(schema = @Schema(ref = "#/components/schemas/RewardModelCreateRequest")))
    @ApiResponse(responseCode = "200", description = "The fitted model, with its held-out metrics",
            content = @Content(schema = @Schema(implementation = RewardModelView.class)))
    @Post
    HttpResponse<?> create(@Parameter(hidden = true) Caller caller,
            @Nullable @Header(IdempotencyKey.HEADER) String key, @Nullable @Body InputStream body) {
        JsonReader request = json.object(body);
        return idempotent.answer(caller, key, "reward-models", () -> RequestFingerprint.of(request.raw()),
                () -> RewardModelView.of(RefusalException.unwrap(fit.fit(RewardRequests.fit(caller, request, datasets)))));
    }

    /** Every version of the caller's reward models, by creation time ({@code order} asc by default). */
    @Get
    PageView<RewardModelView> list(@Parameter(hidden = true) Caller caller, @RequestBean PageQuery query) {
        var page = RefusalException.unwrap(list.list(new ListRewardModelsUseCase.Command(caller, query.page())));
        return PageView.of(page, RewardModelView::of, model -> model.id().toString());
    }

    @Get("/{reward_model_id}")
    RewardModelView get(@Parameter(hidden = true) Caller caller, @PathVariable("reward_model_id") String id) {
        return RewardModelView.of(RefusalException.unwrap(get.get(new GetRewardModelUseCase.Command(caller, id))));
    }

    @Delete("/{reward_model_id}")
    RewardModelDeletedView delete(@Parameter(hidden = true) Caller caller,
            @PathVariable("reward_model_id") String id) {
        return RewardModelDeletedView.of(RefusalException.unwrap(
                delete.delete(new DeleteRewardModelUseCase.Command(caller, id))).id().toString());
    }

    @RequestBody(required = true, content = @Content(schema = @Schema(ref = "#/components/schemas/RewardScoreRequest")))
    @ApiResponse(responseCode = "200", description = "One score per item, in order",
            content = @Content(schema = @Schema(implementation = RewardScoresView.class)))
    @Post("/{reward_model_id}/score")
    RewardScoresView score(@Parameter(hidden = true) Caller caller, @PathVariable("reward_model_id") String id,
            @Nullable @Body InputStream body) {
        return new RewardScoresView(RefusalException.unwrap(
                score.score(RewardRequests.score(caller, id, json.object(body)))));
    }
}
