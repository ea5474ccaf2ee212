package dev.crucible.adapters.http.model;

import io.micronaut.http.annotation.RequestBean;
import dev.crucible.adapters.http.paging.PageQuery;
import dev.crucible.adapters.http.body.JsonBody;
import dev.crucible.adapters.http.idempotency.IdempotentCreation;
import dev.crucible.adapters.http.idempotency.RequestFingerprint;
import dev.crucible.adapters.http.paging.PageView;
import dev.crucible.adapters.http.paging.RequestParams;
import dev.crucible.adapters.http.trajectory.TrajectoryGroupsReader;
import dev.crucible.application.model.CreateModelUseCase;
import dev.crucible.application.model.DeleteCheckpointsUseCase;
import dev.crucible.application.model.DeleteModelUseCase;
import dev.crucible.application.model.ListCheckpointsUseCase;
import dev.crucible.application.model.ListModelsUseCase;
import dev.crucible.application.model.LogTrajectoriesUseCase;
import dev.crucible.domain.idempotency.IdempotencyKey;
import dev.crucible.domain.model.CheckpointDeletion;
import dev.crucible.domain.model.ModelId;
import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.domain.tenancy.Caller;
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
import io.swagger.v3.oas.annotations.parameters.RequestBody;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import java.io.InputStream;
import java.util.Map;

/** Models and their checkpoints under {@code /v1/preview/models}; creating routes honour {@code Idempotency-Key}. */
@Controller("/v1/preview/models")
@Secured(SecurityRule.IS_AUTHENTICATED)
@SecurityRequirement(name = "apiKey")
@ExecuteOn(TaskExecutors.BLOCKING)
record ModelController(JsonBody json, IdempotentCreation idempotent, CreateModelUseCase create,
        DeleteModelUseCase delete, ListModelsUseCase listModels, ListCheckpointsUseCase listCheckpoints,
        DeleteCheckpointsUseCase deleteCheckpoints, LogTrajectoriesUseCase log) {

    @RequestBody(required = true, content = @Content(schema = @Schema(ref = "#/components/schemas/ModelCreateRequest")))
    @ApiResponse(responseCode = "200", description = "The model (an existing one with return_existing)",
            content = @Content(schema = @Schema(implementation = ModelView.class)))
    @Post
    HttpResponse<?> create(@Parameter(hidden = true) Caller caller,
            @Nullable @Header(IdempotencyKey.HEADER) String key, @Nullable @Body InputStream body) {
        JsonReader request = json.object(body);
        return idempotent.answer(caller, key, "models", () -> RequestFingerprint.of(request.raw()),
                () -> ModelView.of(RefusalException.unwrap(create.create(ModelRequests.create(caller, request)))));
    }

    /** The caller's entity's trainable models in creation order ({@code order} asc by default, as the other lists). */
    @Get
    PageView<ModelView> list(@Parameter(hidden = true) Caller caller, @RequestBean PageQuery query) {
        var models = RefusalException.unwrap(listModels.list(new ListModelsUseCase.Command(caller, query.page())));
        return PageView.of(models, ModelView::of, model -> model.id().toString());
    }

    @ApiResponse(responseCode = "200", description = "What was deleted",
            content = @Content(schema = @Schema(ref = "#/components/schemas/ModelDeleted")))
    @Delete("/{model_id}")
    Map<String, Object> delete(@Parameter(hidden = true) Caller caller, @PathVariable("model_id") String modelId) {
        DeleteModelUseCase.Deleted deleted = RefusalException.unwrap(
                delete.delete(new DeleteModelUseCase.Command(caller, modelId(modelId))));
        return Map.of("model_id", deleted.modelId().toString(), "deleted_checkpoints", deleted.deletedCheckpoints(),
                "deleted_run", false);
    }

    @Get("/{model_id}/checkpoints")
    PageView<CheckpointView> checkpoints(@Parameter(hidden = true) Caller caller,
            @PathVariable("model_id") String modelId, @RequestBean PageQuery query) {
        var page = RefusalException.unwrap(listCheckpoints.list(new ListCheckpointsUseCase.Command(caller,
                modelId(modelId), query.page())));
        return PageView.of(page, CheckpointView::of, c -> c.id().toString());
    }

    @RequestBody(required = true,
            content = @Content(schema = @Schema(ref = "#/components/schemas/CheckpointDeleteRequest")))
    @ApiResponse(responseCode = "200", description = "What was deleted",
            content = @Content(schema = @Schema(ref = "#/components/schemas/CheckpointsDeleted")))
    @Delete("/{model_id}/checkpoints")
    Map<String, Object> deleteCheckpoints(@Parameter(hidden = true) Caller caller,
            @PathVariable("model_id") String modelId,
            @Nullable @Body InputStream body) {
        CheckpointDeletion deletion = RefusalException.unwrap(deleteCheckpoints.delete(
                new DeleteCheckpointsUseCase.Command(caller, modelId(modelId),
                        ModelRequests.steps(json.object(body)))));
        return Map.of("deleted_count", deletion.toDelete().size(), "not_found_steps", deletion.notFound());
    }

    @RequestBody(required = true, content = @Content(schema = @Schema(ref = "#/components/schemas/ModelLogRequest")))
    @ApiResponse(responseCode = "200", description = "Nothing: the trajectories are logged",
            content = @Content(schema = @Schema(ref = "#/components/schemas/Empty")))
    @Post("/{model_id}/log")
    HttpResponse<?> log(@Parameter(hidden = true) Caller caller, @PathVariable("model_id") String modelId,
            @Nullable @Header(IdempotencyKey.HEADER) String key,
            @Nullable @Body InputStream body) {
        JsonReader request = json.largeObject(body);
        String split = request.requireString("split");
        var groups = TrajectoryGroupsReader.read(request, "trajectory_groups");
        return idempotent.answer(caller, key, "model-logs", () -> RequestFingerprint.of(modelId, request.raw()), () -> {
            RefusalException.unwrap(log.log(new LogTrajectoriesUseCase.Command(caller, modelId(modelId), split,
                    groups)));
            return Map.of();
        });
    }

    private static ModelId modelId(String value) {
        return new ModelId(RequestParams.uuid("model_id", value));
    }
}
