package dev.crucible.adapters.http.model;

import dev.crucible.application.model.ListServedModelsUseCase;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.tenancy.Caller;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.micronaut.serde.annotation.Serdeable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code GET /v1/models}: the served base models and the caller's trained models, OpenAI's list shape. */
@Controller("/v1/models")
@Secured(SecurityRule.IS_AUTHENTICATED)
@ExecuteOn(TaskExecutors.BLOCKING)
final class ServedModelsController {

    private final ListServedModelsUseCase served;
    private final long startedAt = Instant.now().getEpochSecond();

    ServedModelsController(ListServedModelsUseCase served) {
        this.served = served;
    }

    /** One entry, like vLLM's: {@code root} is the base model, {@code parent} null for base models. */
    @Serdeable
    record Entry(String id, String object, long created, String owned_by, String root, String parent) {
    }

    @Get
    Map<String, Object> list(Caller caller) {
        ListServedModelsUseCase.Served models = served.list(caller);
        List<Entry> data = new ArrayList<>();
        for (String base : models.baseModels()) {
            data.add(new Entry(base, "model", startedAt, "crucible", base, null));
        }
        for (Model m : models.trainedModels()) {
            data.add(new Entry(m.address(), "model", m.createdAt().getEpochSecond(), m.coordinates().entity().value(),
                    m.baseModel(), m.baseModel()));
        }
        return Map.of("object", "list", "data", data);
    }
}
