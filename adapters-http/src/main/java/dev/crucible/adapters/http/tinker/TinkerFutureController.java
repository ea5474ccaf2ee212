package dev.crucible.adapters.http.tinker;

import dev.crucible.adapters.http.body.JsonBody;
import dev.crucible.adapters.http.tinker.proto.TinkerProto;
import dev.crucible.application.primitives.OperationResult;
import dev.crucible.application.primitives.OperationState;
import dev.crucible.application.primitives.RetrieveFutureUseCase;
import dev.crucible.application.primitives.StoredOperation;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.RefusalException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.rules.SecurityRule;
import io.swagger.v3.oas.annotations.Hidden;
import java.io.InputStream;
import java.util.Optional;

/**
 * {@code POST /api/v1/retrieve_future}: long-polls an operation of the caller's entity (at most
 * {@code crucible.primitives.long-poll}), then answers its result, its failure as {@code {"error", "category"}}, or
 * {@code try_again}; an unknown or another entity's request id is a 404. A finished {@code forward_backward},
 * {@code forward} or {@code asample} result is protobuf ({@link TinkerProto}) when the {@code Accept} header names
 * it, as SDK 0.25 asks; everything else is JSON.
 */
@Hidden
@Controller("/api/v1")
@Secured(SecurityRule.IS_AUTHENTICATED)
@ExecuteOn(TaskExecutors.BLOCKING)
record TinkerFutureController(JsonBody json, RetrieveFutureUseCase futures) {

    @Post(value = "/retrieve_future", produces = {MediaType.APPLICATION_JSON, TinkerProto.MEDIA_TYPE})
    HttpResponse<?> retrieve(Caller caller, @Nullable @Header(HttpHeaders.ACCEPT) String accept,
            @Nullable @Body InputStream body) {
        String requestId = json.object(body).requireString("request_id");
        StoredOperation op = RefusalException.unwrap(futures.retrieve(caller, requestId));
        Optional<byte[]> protobuf = TinkerProto.namedIn(accept) ? protobuf(op) : Optional.empty();
        if (protobuf.isPresent()) {
            return HttpResponse.ok(protobuf.get()).contentType(TinkerProto.MEDIA_TYPE);
        }
        return HttpResponse.ok(TinkerReplies.future(op)).contentType(MediaType.APPLICATION_JSON_TYPE);
    }

    /** The one place a stored result becomes protobuf: a finished forward/backward or sample result, else none. */
    private static Optional<byte[]> protobuf(StoredOperation op) {
        if (!(op.state() instanceof OperationState.Done(OperationResult result))) {
            return Optional.empty();
        }
        return switch (result) {
            case OperationResult.ForwardBackward r -> Optional.of(TinkerProto.write(r.output()));
            case OperationResult.Sampled r -> Optional.of(TinkerProto.write(r.output()));
            default -> Optional.empty();
        };
    }
}
