package dev.crucible.engine.djl;

import dev.crucible.hf.safetensors.DType;
import dev.crucible.hf.safetensors.SafetensorsReader;
import dev.crucible.hf.safetensors.SafetensorsWriter;
import dev.crucible.hf.safetensors.TensorInfo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;

/** Rewrites a model folder's {@code model.safetensors} tensor by tensor, to make broken or differently typed models. */
final class Weights {

    private Weights() {
    }

    /**
     * Stores each tensor with the dtype {@code dtypeOf} gives for its name (F64 holds the same values widened), or
     * leaves it out where that is empty.
     */
    static void rewrite(Path modelDir, Function<String, Optional<DType>> dtypeOf) throws IOException {
        Path file = modelDir.resolve("model.safetensors");
        SafetensorsWriter writer = new SafetensorsWriter().metadata("format", "pt");
        try (SafetensorsReader reader = SafetensorsReader.open(file)) {
            for (TensorInfo t : reader.tensors()) {
                float[] values = reader.floats(t.name());
                Optional<DType> dtype = dtypeOf.apply(t.name());
                if (dtype.isEmpty()) {
                    continue;
                }
                if (dtype.get().hasF32View()) {
                    writer.add(t.name(), dtype.get(), t.dims(), values);
                } else if (dtype.get() == DType.F64) {
                    writer.addRaw(t.name(), DType.F64, t.dims(), doubles(values));
                } else {
                    throw new IllegalArgumentException("cannot store float values as " + dtype.get());
                }
            }
        }
        writer.write(file);
    }

    private static byte[] doubles(float[] values) {
        ByteBuffer buf = ByteBuffer.allocate(values.length * Double.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            buf.putDouble(v);
        }
        return buf.array();
    }
}
