package dev.crucible.hf.safetensors;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/** A tensor waiting to be written: float values narrowed on the way out, or raw little-endian bytes. */
record PendingTensor(String name, DType dtype, long[] shape, float[] floats, byte[] raw) {

    long byteSize() {
        return raw != null ? raw.length : (long) floats.length * dtype.bytes();
    }

    /** Streams the data through {@code buf} (little-endian, emptied whenever full). */
    void writeTo(FileChannel out, ByteBuffer buf) throws IOException {
        if (raw != null) {
            SafetensorsWriter.drain(out, buf);
            SafetensorsWriter.writeFully(out, ByteBuffer.wrap(raw));
            return;
        }
        for (float f : floats) {
            if (buf.remaining() < 4) {
                SafetensorsWriter.drain(out, buf);
            }
            switch (dtype) {
                case F32 -> buf.putFloat(f);
                case F16 -> buf.putShort(Float.floatToFloat16(f));
                case BF16 -> buf.putShort(Widening.floatToBf16(f));
                default -> throw new IllegalStateException("float data stored as " + dtype);
            }
        }
        SafetensorsWriter.drain(out, buf);
    }
}
