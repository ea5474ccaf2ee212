package dev.crucible.hf.safetensors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.crucible.hf.HfJson;
import dev.crucible.hf.ModelFormatException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A parsed, validated safetensors header: a little-endian u64 length, then that many bytes of JSON mapping tensor
 * names to {@code {dtype, shape, data_offsets}}, plus an optional string-to-string {@code __metadata__}. Every offset
 * is checked against the file's size and the tensor's shape before any data is touched.
 */
record SafetensorsHeader(List<TensorInfo> tensors, Map<String, String> metadata, long dataStart) {

    /** The safetensors library's own limit on header size. */
    static final long MAX_HEADER_BYTES = 100_000_000L;
    static final String METADATA = "__metadata__";

    static SafetensorsHeader parse(MemorySegment file, String fileName) {
        long size = file.byteSize();
        if (size < 8) {
            throw fail(fileName, "too short for a safetensors header (" + size + " bytes)");
        }
        long n = file.get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 0);
        if (n < 2 || n > MAX_HEADER_BYTES || n > size - 8) {
            throw fail(fileName, "header length " + Long.toUnsignedString(n) + " does not fit the file ("
                    + size + " bytes) or the " + MAX_HEADER_BYTES + "-byte limit");
        }
        byte[] json = file.asSlice(8, n).toArray(ValueLayout.JAVA_BYTE);
        if (json[0] != '{') {
            throw fail(fileName, "header does not start with '{'");
        }
        JsonNode root = HfJson.parse(new String(json, StandardCharsets.UTF_8), fileName + " header");
        long dataSize = size - 8 - n;
        List<TensorInfo> tensors = new ArrayList<>();
        Map<String, String> metadata = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : root.properties()) {
            if (e.getKey().equals(METADATA)) {
                readMetadata(e.getValue(), metadata, fileName);
            } else {
                tensors.add(tensor(e.getKey(), e.getValue(), dataSize, fileName));
            }
        }
        refuseOverlaps(tensors, fileName);
        return new SafetensorsHeader(List.copyOf(tensors), Map.copyOf(metadata), 8 + n);
    }

    private static TensorInfo tensor(String name, JsonNode entry, long dataSize, String fileName) {
        JsonNode dtype = entry.get("dtype");
        JsonNode shape = entry.get("shape");
        JsonNode offsets = entry.get("data_offsets");
        if (dtype == null || !dtype.isTextual() || shape == null || !shape.isArray() || offsets == null
                || !offsets.isArray() || offsets.size() != 2) {
            throw fail(fileName, "tensor '" + name + "' needs a string dtype, a shape list and two data_offsets");
        }
        DType type;
        try {
            type = DType.fromName(dtype.textValue());
        } catch (ModelFormatException e) {
            throw fail(fileName, "tensor '" + name + "': " + e.getMessage());
        }
        List<Long> dims = new ArrayList<>();
        long bytes = type.bytes();
        try {
            for (JsonNode d : shape) {
                long dim = nonNegative(d, name, "shape", fileName);
                dims.add(dim);
                bytes = Math.multiplyExact(bytes, dim);
            }
        } catch (ArithmeticException e) {
            throw fail(fileName, "tensor '" + name + "' has a shape too large: " + shape);
        }
        long begin = nonNegative(offsets.get(0), name, "data_offsets", fileName);
        long end = nonNegative(offsets.get(1), name, "data_offsets", fileName);
        if (begin > end || end > dataSize) {
            throw fail(fileName, "tensor '" + name + "' has data_offsets [" + begin + ", " + end
                    + "] outside the data section of " + dataSize + " bytes");
        }
        if (end - begin != bytes) {
            throw fail(fileName, "tensor '" + name + "' has " + (end - begin) + " bytes but " + type + " " + dims
                    + " needs " + bytes);
        }
        return new TensorInfo(name, type, dims, begin, end);
    }

    private static long nonNegative(JsonNode v, String name, String key, String fileName) {
        if (v == null || !v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() < 0) {
            throw fail(fileName, "tensor '" + name + "' has an invalid " + key + " value: " + v);
        }
        return v.longValue();
    }

    private static void readMetadata(JsonNode node, Map<String, String> into, String fileName) {
        if (!node.isObject()) {
            throw fail(fileName, "__metadata__ must be an object of strings");
        }
        for (Map.Entry<String, JsonNode> m : node.properties()) {
            if (!m.getValue().isTextual()) {
                throw fail(fileName, "__metadata__ value of '" + m.getKey() + "' is not a string");
            }
            into.put(m.getKey(), m.getValue().textValue());
        }
    }

    private static void refuseOverlaps(List<TensorInfo> tensors, String fileName) {
        List<TensorInfo> sorted = new ArrayList<>(tensors);
        sorted.sort(Comparator.comparingLong(TensorInfo::begin).thenComparingLong(TensorInfo::end));
        for (int i = 1; i < sorted.size(); i++) {
            TensorInfo prev = sorted.get(i - 1);
            if (sorted.get(i).begin() < prev.end()) {
                throw fail(fileName, "tensors '" + prev.name() + "' and '" + sorted.get(i).name() + "' overlap");
            }
        }
    }

    private static ModelFormatException fail(String fileName, String message) {
        return new ModelFormatException(fileName + ": " + message);
    }
}
