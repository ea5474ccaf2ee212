package dev.crucible.adapters.http.model;

import dev.crucible.application.model.ListServedModelsUseCase;
import dev.crucible.domain.model.Model;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.domain.tenancy.Caller;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.micronaut.serde.annotation.Serdeable;
import io.swagger.v3.oas.annotations.Hidden;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** {@code GET /v1/models} and {@code GET /v1/models/{model}}: the served base models and the caller's trained models, OpenAI's list shape. */
@Controller("/v1/models")
@Secured(SecurityRule.IS_AUTHENTICATED)
@SecurityRequirement(name = "apiKey")
@ExecuteOn(TaskExecutors.BLOCKING)
final class ServedModelsController {

    private final ListServedModelsUseCase served;
    private final long startedAt = Instant.now().getEpochSecond();

    ServedModelsController(ListServedModelsUseCase served) {
        this.served = served;
    }

    /**
     * One entry, like vLLM's: {@code root} is the base model, {@code parent} null for base models; {@code engine}
     * (Crucible's) names the engine that serves it, {@code djl} or {@code onnx}; {@code scheduling_policy} how its
     * waiting requests are ordered, {@code fcfs} (a non-zero request {@code priority} is refused) or
     * {@code priority}.
     */
    @Serdeable
    record Entry(String id, String object, long created, String owned_by, String root, @Nullable String parent,
            @Nullable String engine, String scheduling_policy) {
    }

    /** OpenAI's list shape: {@code object} is always {@code list}. */
    @Serdeable
    record EntryList(String object, List<Entry> data) {
    }

    @Get
    @Operation(description = "The served base models and the caller's trained models. GET /v1/models/{model} answers "
            + "one entry of this list (the SDKs' models.retrieve); a trained model's id holds slashes, sent raw or "
            + "percent-encoded.")
    EntryList list(@Parameter(hidden = true) Caller caller) {
        return new EntryList("list", entries(caller));
    }

    /**
     * {@code GET /v1/models/{model}} (the SDKs' {@code models.retrieve}): the list's entry for that id. A trained
     * model's id holds slashes ({@code crucible:///entity/project/name}), sent raw or percent-encoded. Described in
     * the OpenAPI document on the list, since OpenAPI cannot state a path parameter that holds slashes.
     */
    @Get("/{+model}")
    @Hidden
    Entry retrieve(@Parameter(hidden = true) Caller caller, @PathVariable("model") String model) {
        return entries(caller).stream().filter(entry -> entry.id().equals(model)).findFirst()
                .orElseThrow(() -> new RefusalException(
                        Refusal.notFound("model", "The model `" + model + "` does not exist.")));
    }

    private List<Entry> entries(Caller caller) {
        ListServedModelsUseCase.Served models = served.list(caller);
        List<Entry> data = new ArrayList<>();
        for (String base : models.baseModels()) {
            data.add(new Entry(base, "model", startedAt, "crucible", base, null, models.engines().get(base),
                    models.schedulingOf(base).wireName()));
        }
        for (Model m : models.trainedModels()) {
            data.add(new Entry(m.address(), "model", m.createdAt().getEpochSecond(), m.coordinates().entity().value(),
                    m.baseModel(), m.baseModel(), models.engines().get(m.baseModel()),
                    models.schedulingOf(m.baseModel()).wireName()));
        }
        return data;
    }
}
