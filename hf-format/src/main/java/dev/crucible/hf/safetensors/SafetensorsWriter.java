package dev.crucible.hf.safetensors;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crucible.hf.HfJson;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes one safetensors file: a little-endian u64 header length, the JSON header ({@code __metadata__} first, then
 * the tensors in the order added, data offsets contiguous) padded with spaces to a multiple of 8, then the data.
 * Float tensors are stored as F32, F16 or BF16 (narrowed rounding to nearest even). Not thread-safe; the arrays
 * passed in are kept, not copied, until {@link #write}.
 */
public final class SafetensorsWriter {

    private static final int CHUNK = 1 << 20;

    private final Map<String, String> metadata = new LinkedHashMap<>();
    private final List<PendingTensor> tensors = new ArrayList<>();
    private final Set<String> names = new HashSet<>();

    /** Adds a {@code __metadata__} entry (transformers writes {@code "format": "pt"}). */
    public SafetensorsWriter metadata(String key, String value) {
        metadata.put(key, value);
        return this;
    }

    /** Adds a float tensor stored as {@code storeAs} (F32, F16 or BF16); {@code values} is row-major. */
    public SafetensorsWriter add(String name, DType storeAs, long[] shape, float[] values) {
        if (!storeAs.hasF32View()) {
            throw new IllegalArgumentException("float values can be stored as F32, F16 or BF16, not " + storeAs);
        }
        return add(new PendingTensor(name, storeAs, shape.clone(), values, null), values.length);
    }

    /** Adds a tensor of any dtype from its little-endian bytes. */
    public SafetensorsWriter addRaw(String name, DType dtype, long[] shape, byte[] littleEndianBytes) {
        if (littleEndianBytes.length % dtype.bytes() != 0) {
            throw new IllegalArgumentException("tensor '" + name + "' has " + littleEndianBytes.length
                    + " bytes, not a multiple of " + dtype.bytes());
        }
        return add(new PendingTensor(name, dtype, shape.clone(), null, littleEndianBytes),
                littleEndianBytes.length / dtype.bytes());
    }

    /** Writes the file (replacing any) and returns its size in bytes. */
    public long write(Path file) throws IOException {
        byte[] header = header();
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer buf = ByteBuffer.allocate(CHUNK).order(ByteOrder.LITTLE_ENDIAN);
            buf.putLong(header.length);
            drain(out, buf);
            writeFully(out, ByteBuffer.wrap(header));
            for (PendingTensor t : tensors) {
                t.writeTo(out, buf);
            }
            return out.size();
        }
    }

    private SafetensorsWriter add(PendingTensor tensor, long elements) {
        if (tensor.name().equals(SafetensorsHeader.METADATA) || !names.add(tensor.name())) {
            throw new IllegalArgumentException("duplicate or reserved tensor name '" + tensor.name() + "'");
        }
        long expected = Arrays.stream(tensor.shape()).reduce(1, Math::multiplyExact);
        if (expected != elements) {
            throw new IllegalArgumentException("tensor '" + tensor.name() + "' has " + elements
                    + " elements but shape " + Arrays.toString(tensor.shape()) + " needs " + expected);
        }
        tensors.add(tensor);
        return this;
    }

    private byte[] header() {
        ObjectNode root = HfJson.object();
        if (!metadata.isEmpty()) {
            ObjectNode meta = root.putObject(SafetensorsHeader.METADATA);
            metadata.forEach(meta::put);
        }
        long offset = 0;
        for (PendingTensor t : tensors) {
            ObjectNode entry = root.putObject(t.name());
            entry.put("dtype", t.dtype().name());
            Arrays.stream(t.shape()).forEach(entry.putArray("shape")::add);
            long end = offset + t.byteSize();
            entry.putArray("data_offsets").add(offset).add(end);
            offset = end;
        }
        StringBuilder json = new StringBuilder(HfJson.compact(root));
        while (json.toString().getBytes(StandardCharsets.UTF_8).length % 8 != 0) {
            json.append(' ');
        }
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Writes what {@code buf} holds and empties it for refilling. */
    static void drain(FileChannel out, ByteBuffer buf) throws IOException {
        buf.flip();
        writeFully(out, buf);
        buf.clear();
    }

    static void writeFully(FileChannel out, ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            out.write(bytes);
        }
    }
}
