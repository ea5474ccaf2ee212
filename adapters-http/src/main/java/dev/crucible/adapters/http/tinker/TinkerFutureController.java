package dev.crucible.adapters.http.tinker;

import dev.crucible.adapters.http.body.JsonBody;
import dev.crucible.application.primitives.RetrieveFutureUseCase;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.RefusalException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Hidden;
import java.io.InputStream;
import java.util.Map;

/**
 * {@code POST /api/v1/retrieve_future}: long-polls an operation of the caller's entity (at most
 * {@code crucible.primitives.long-poll}), then answers its result, its failure as {@code {"error", "category"}}, or
 * {@code try_again}; an unknown or another entity's request id is a 404.
 */
@Hidden
@Controller("/api/v1")
@Secured(SecurityRule.IS_AUTHENTICATED)
@ExecuteOn(TaskExecutors.BLOCKING)
record TinkerFutureController(JsonBody json, RetrieveFutureUseCase futures) {

    @Post("/retrieve_future")
    Map<String, Object> retrieve(Caller caller, @Nullable @Body InputStream body) {
        String requestId = json.object(body).requireString("request_id");
        return TinkerReplies.future(RefusalException.unwrap(futures.retrieve(caller, requestId)));
    }
}
