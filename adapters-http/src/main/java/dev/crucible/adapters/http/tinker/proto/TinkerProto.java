package dev.crucible.adapters.http.tinker.proto;

import dev.crucible.application.primitives.ForwardBackwardOutput;
import dev.crucible.application.primitives.SampleOutput;
import dev.crucible.kernel.refusal.Outcome;
import java.util.Locale;
import java.util.Objects;

/**
 * The codec of the Tinker SDK 0.25 protobuf profile (schema {@code tinker_public.proto}), between bodies and the
 * training primitives. The routes choose it by media type: a {@code forward_backward} request whose
 * {@code Content-Type} is {@link #MEDIA_TYPE} is read here (JSON otherwise), and {@code retrieve_future} answers a
 * {@code forward_backward} or {@code asample} result in this form when the {@code Accept} header names
 * {@link #MEDIA_TYPE}. Immutable and safe to share between threads.
 */
public final class TinkerProto {

    /** The media type of protobuf bodies, in {@code Content-Type} and {@code Accept}. */
    public static final String MEDIA_TYPE = "application/x-protobuf";

    private final ForwardBackwardReader reader;

    /** @param limits what one request may make the server allocate */
    public TinkerProto(ProtoLimits limits) {
        this.reader = new ForwardBackwardReader(Objects.requireNonNull(limits, "limits"));
    }

    /**
     * Reads a {@code ForwardBackwardRequest} body. Never throws for what the caller sent: malformed bytes (param
     * {@code body}), a chunk other than text, a sparse tensor, a tensor without a dtype, a byte length that is not a
     * whole number of values, a shape that does not multiply out to them (param: the datum's field, as
     * {@code data[3].loss_fn_inputs.weights}) are {@code INVALID}; more datums or values than {@link ProtoLimits}
     * allows are {@code TOO_LARGE}. The loss function's name and inputs are checked later, against the model.
     */
    public Outcome<ForwardBackwardRequest> readForwardBackward(byte[] body) {
        return reader.read(Objects.requireNonNull(body, "body"));
    }

    /**
     * A {@code forward_backward} (or forward) result as a {@code ForwardBackwardOutput} message.
     *
     * @throws IllegalArgumentException where datums disagree on an output's kind or trailing dimensions (a bug)
     */
    public static byte[] write(ForwardBackwardOutput output) {
        return ResultWriter.forwardBackward(Objects.requireNonNull(output, "output"));
    }

    /** An {@code asample} result as a {@code SampleResponse} message. */
    public static byte[] write(SampleOutput output) {
        return ResultWriter.sample(Objects.requireNonNull(output, "output"));
    }

    /**
     * Whether a {@code Content-Type} or {@code Accept} header (null when absent) names {@link #MEDIA_TYPE}, with or
     * without parameters or other media types beside it, in any case.
     */
    public static boolean namedIn(String header) {
        return header != null && header.toLowerCase(Locale.ROOT).contains(MEDIA_TYPE);
    }
}
