package dev.crucible.adapters.http.dataset;

import dev.crucible.adapters.http.paging.RequestParams;
import dev.crucible.application.dataset.CheckpointLineageUseCase;
import dev.crucible.domain.model.ModelId;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.RefusalException;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A checkpoint's lineage: {@code {"object": "checkpoint.lineage", "model_id", "step", "datasets": [{..., 
 * "completion_ids", "feedback_ids"}]}}, the datasets the jobs that wrote it trained on.
 */
@Controller("/v1/preview/models")
@Secured(SecurityRule.IS_AUTHENTICATED)
@SecurityRequirement(name = "apiKey")
@ExecuteOn(TaskExecutors.BLOCKING)
record LineageController(CheckpointLineageUseCase lineage) {

    @Get("/{model_id}/checkpoints/{step}/lineage")
    Map<String, Object> lineage(@Parameter(hidden = true) Caller caller, @PathVariable("model_id") String modelId,
            @PathVariable("step") String step) {
        ModelId model = new ModelId(RequestParams.uuid("model_id", modelId));
        int at = RequestParams.step(step);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("object", "checkpoint.lineage");
        body.put("model_id", model.toString());
        body.put("step", at);
        body.put("datasets", RefusalException.unwrap(lineage.lineage(caller, model, at)).stream()
                .map(DatasetViews::lineage).toList());
        return body;
    }
}
