package dev.crucible.adapters.http.tinker.proto;

import com.google.protobuf.ByteString;
import dev.crucible.adapters.http.tinker.proto.wire.TinkerPublic;
import dev.crucible.application.primitives.Tensor;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.kernel.refusal.RefusalException;
import java.util.List;

/**
 * Reads one protobuf {@code Tensor}: dense little-endian values of {@code float32}, {@code int64}, {@code int32}
 * (widened to {@link Tensor.Ints}) or {@code bfloat16} (widened to {@link Tensor.Floats}), with a shape whose product
 * is the number of values (none means one dimension). Sparse CSR tensors are refused: the SDK makes them only from 2-D
 * inputs, which Crucible's losses do not take. Every check runs before an array is made, so a refused tensor allocates
 * nothing; the refusal names the tensor by {@code path}.
 */
final class TensorReader {

    private final ProtoLimits limits;

    TensorReader(ProtoLimits limits) {
        this.limits = limits;
    }

    Tensor read(TinkerPublic.Tensor tensor, String path) {
        ByteString dense = switch (tensor.getEncodingCase()) {
            case DENSE -> tensor.getDense();
            case SPARSE_CSR -> throw RefusalException.invalid(path, path + " is a sparse (CSR) tensor; Crucible reads"
                    + " dense tensors only: send a flat list or a 1-D array");
            case ENCODING_NOT_SET -> throw RefusalException.invalid(path, path + " has no values: set dense");
        };
        int width = width(tensor.getDtype(), tensor.getDtypeValue(), path);
        if (dense.size() % width != 0) {
            throw RefusalException.invalid(path, path + " holds " + dense.size() + " bytes, not a whole number of "
                    + tensor.getDtype() + " values (" + width + " bytes each)");
        }
        int count = dense.size() / width;
        if (count > limits.maxValuesPerTensor()) {
            throw tooLarge(path, path + " holds " + count + " values, more than the " + limits.maxValuesPerTensor()
                    + " a tensor may hold");
        }
        int[] shape = shape(tensor.getShapeList(), count, path);
        return switch (tensor.getDtype()) {
            case DTYPE_FLOAT32 -> new Tensor.Floats(LittleEndian.float32s(dense), shape);
            case DTYPE_BFLOAT16 -> new Tensor.Floats(LittleEndian.bfloat16sAsFloats(dense), shape);
            case DTYPE_INT64 -> new Tensor.Ints(LittleEndian.int64s(dense), shape);
            case DTYPE_INT32 -> new Tensor.Ints(LittleEndian.int32sAsLongs(dense), shape);
            case DTYPE_UNSPECIFIED, UNRECOGNIZED -> throw new IllegalStateException("width admitted "
                    + tensor.getDtype());
        };
    }

    static RefusalException tooLarge(String param, String message) {
        return new RefusalException(new Refusal(Refusal.Reason.TOO_LARGE, message, param));
    }

    private static int width(TinkerPublic.DType dtype, int number, String path) {
        return switch (dtype) {
            case DTYPE_FLOAT32, DTYPE_INT32 -> Integer.BYTES;
            case DTYPE_INT64 -> Long.BYTES;
            case DTYPE_BFLOAT16 -> Short.BYTES;
            case DTYPE_UNSPECIFIED -> throw RefusalException.invalid(path, path + " has no dtype: set FLOAT32, INT64,"
                    + " INT32 or BFLOAT16");
            case UNRECOGNIZED -> throw RefusalException.invalid(path, path + " has dtype " + number + ", not one of"
                    + " FLOAT32 (1), INT64 (2), INT32 (3) or BFLOAT16 (4)");
        };
    }

    /** The shape as sent, or {@code [count]} when none was; refused unless its sizes are natural and multiply out. */
    private static int[] shape(List<Long> sizes, int count, String path) {
        if (sizes.isEmpty()) {
            return new int[] {count};
        }
        int[] shape = new int[sizes.size()];
        long product = 1;
        for (int i = 0; i < shape.length; i++) {
            long size = sizes.get(i);
            if (size < 0 || size > Integer.MAX_VALUE) {
                throw RefusalException.invalid(path, path + " has shape " + sizes + " with a size below 0 or above "
                        + Integer.MAX_VALUE);
            }
            // Past count the product can only stay above it (or drop to 0 at a later 0): clamping keeps it exact
            // enough to compare and free of overflow.
            product = Math.min(product * Math.min(size, (long) count + 1), (long) count + 1);
            shape[i] = (int) size;
        }
        if (product != count) {
            throw RefusalException.invalid(path, path + " has shape " + sizes + ", which does not hold its " + count
                    + " values");
        }
        return shape;
    }
}
