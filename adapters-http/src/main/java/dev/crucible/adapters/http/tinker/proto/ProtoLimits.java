package dev.crucible.adapters.http.tinker.proto;

/**
 * What one protobuf request may make the server allocate, beyond the body's own size (which the HTTP layer bounds):
 * the values a datum's model input or one loss input may hold, and the datums of one call. Reading refuses past them
 * with {@code TOO_LARGE}, before the arrays are made.
 *
 * @param maxDatums          datums in one {@code forward_backward} call, at least 1
 * @param maxValuesPerTensor tokens of one datum's model input, and values of one loss input, at least 1
 */
public record ProtoLimits(int maxDatums, int maxValuesPerTensor) {

    public ProtoLimits {
        if (maxDatums < 1) {
            throw new IllegalArgumentException("maxDatums must be at least 1, got " + maxDatums);
        }
        if (maxValuesPerTensor < 1) {
            throw new IllegalArgumentException("maxValuesPerTensor must be at least 1, got " + maxValuesPerTensor);
        }
    }
}
