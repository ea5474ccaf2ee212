package dev.crucible.adapters.http.object;

import dev.crucible.kernel.refusal.RefusalException;
import dev.crucible.adapters.http.body.JsonBody;
import dev.crucible.application.object.CreateObjectUseCase;
import dev.crucible.application.object.ReadObjectUseCase;
import dev.crucible.domain.tenancy.Caller;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
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

/** Weave's object routes under {@code /obj}: create a version, read a version. */
@Controller("/obj")
@Secured(SecurityRule.IS_AUTHENTICATED)
@SecurityRequirement(name = "apiKey")
@SecurityRequirement(name = "weaveBasic")
@ExecuteOn(TaskExecutors.BLOCKING)
record ObjectController(JsonBody json, CreateObjectUseCase create, ReadObjectUseCase read) {

    @RequestBody(required = true,
            content = @Content(schema = @Schema(ref = "#/components/schemas/ObjectCreateRequest")))
    @Post("/create")
    ObjectCreatedView create(@Parameter(hidden = true) Caller caller, @Nullable @Body InputStream body) {
        return ObjectCreatedView.of(RefusalException.unwrap(ObjectRequests.onCreateBody(
                create.create(ObjectRequests.create(caller, json.object(body))))));
    }

    @RequestBody(required = true, content = @Content(schema = @Schema(ref = "#/components/schemas/ObjectReadRequest")))
    @Post("/read")
    ObjectView.Read read(@Parameter(hidden = true) Caller caller, @Nullable @Body InputStream body) {
        return new ObjectView.Read(ObjectView.of(RefusalException.unwrap(
                read.read(ObjectRequests.read(caller, json.object(body))))));
    }
}
