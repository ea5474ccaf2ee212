package dev.crucible.adapters.http.tinker;

import dev.crucible.adapters.http.body.JsonBody;
import dev.crucible.adapters.http.error.ErrorEnvelope;
import dev.crucible.adapters.http.idempotency.RequestFingerprint;
import dev.crucible.adapters.http.tinker.proto.ForwardBackwardRequest;
import dev.crucible.adapters.http.tinker.proto.ProtoLimits;
import dev.crucible.adapters.http.tinker.proto.TinkerProto;
import dev.crucible.application.primitives.PrimitiveLimits;
import dev.crucible.application.primitives.RunCommand;
import dev.crucible.application.primitives.SubmitRunOperationUseCase;
import dev.crucible.domain.tenancy.Caller;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.kernel.refusal.RefusalException;
import io.micronaut.context.annotation.Value;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
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
import java.security.MessageDigest;
import java.util.UUID;

/**
 * {@code POST /api/v1/forward_backward} in the SDK 0.25 profile: a protobuf {@code ForwardBackwardRequest}
 * ({@code Content-Type: application/x-protobuf}; the JSON body of older SDKs goes to {@link TinkerTrainingController}),
 * a forward pass when {@code forward_only} is set. Read by {@link TinkerProto}, then submitted as the JSON route
 * submits, so both profiles share one check, one log and one dedupe; a refusal names the field by its path in the
 * protobuf message ({@code data[0].loss_fn_inputs.weights}). A compressed body ({@code Content-Encoding: zstd}, which
 * the SDK sends only when the client config asks, and Crucible's does not) is a 415.
 */
@Hidden
@Controller("/api/v1")
@Secured(SecurityRule.IS_AUTHENTICATED)
@ExecuteOn(TaskExecutors.BLOCKING)
final class TinkerProtobufController {

    private static final String[] CHECK_PREFIXES = {"forward_backward_input.", "forward_input."};

    private final JsonBody bodies;
    private final SubmitRunOperationUseCase submit;
    private final TinkerProto proto;

    TinkerProtobufController(JsonBody bodies, SubmitRunOperationUseCase submit, PrimitiveLimits limits,
            @Value("${crucible.primitives.max-tensor-values:1048576}") int maxTensorValues) {
        this.bodies = bodies;
        this.submit = submit;
        this.proto = new TinkerProto(new ProtoLimits(limits.maxDatums(), maxTensorValues));
    }

    @Post(value = "/forward_backward", consumes = TinkerProto.MEDIA_TYPE)
    HttpResponse<?> forwardBackward(Caller caller, @Nullable @Header(HttpHeaders.CONTENT_ENCODING) String encoding,
            @Nullable @Body InputStream body) {
        if (encoding != null && !encoding.isBlank() && !encoding.strip().equalsIgnoreCase("identity")) {
            return HttpResponse.status(HttpStatus.UNSUPPORTED_MEDIA_TYPE).body(ErrorEnvelope.of(415,
                    "Content-Encoding '" + encoding.strip() + "' is not accepted: send the protobuf body uncompressed "
                            + "(the client config's proto_compress_fwdbwd is false)", HttpHeaders.CONTENT_ENCODING));
        }
        byte[] bytes = bodies.bytes(body);
        ForwardBackwardRequest request = RefusalException.unwrap(proto.readForwardBackward(bytes));
        if (request.seqId() < 0) {
            throw RefusalException.invalid("seq_id", "seq_id must be at least 0, got " + request.seqId());
        }
        Outcome<UUID> accepted = submit.submit(new SubmitRunOperationUseCase.Command(caller, request.modelId(),
                request.seqId(), new RunCommand.ForwardBackward(request.input()),
                digest(bytes)));
        UUID id = switch (accepted) {
            case Outcome.Done<UUID> done -> done.value();
            case Outcome.Refused<UUID> refused -> throw new RefusalException(inMessage(refused.refusal()));
        };
        return HttpResponse.ok(TinkerReplies.ordered("request_id", id.toString(), "model_id", request.modelId()));
    }

    /** A refusal of the checks both profiles share, its field named as the protobuf message names it. */
    private static Refusal inMessage(Refusal refusal) {
        String param = refusal.param();
        for (String prefix : CHECK_PREFIXES) {
            if (param != null && param.startsWith(prefix)) {
                return new Refusal(refusal.reason(), refusal.message(), param.substring(prefix.length()),
                        refusal.retryAfter());
            }
        }
        return refusal;
    }

    /** The body's digest, by which an identical retry (the same bytes) is recognised. */
    private static String digest(byte[] bytes) {
        MessageDigest digest = RequestFingerprint.sha256();
        digest.update(bytes);
        return "protobuf:" + RequestFingerprint.hex(digest);
    }
}
