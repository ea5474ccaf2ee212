package dev.crucible.engine.onnx;

import ai.onnx.proto.OnnxMl.TensorProto.DataType;
import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxTensorLike;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import dev.crucible.engine.spi.EngineException;
import dev.crucible.engine.spi.F32Weights;
import dev.crucible.hf.safetensors.DType;
import dev.crucible.hf.safetensors.SafetensorsReader;
import dev.crucible.hf.safetensors.TensorInfo;
import dev.crucible.hf.safetensors.TensorLocation;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The weights a decoder graph uses, checked and handed to ONNX Runtime in one of two ways.
 *
 * <p><b>Referenced in place</b> (F32 tensors, when {@code -Dcrucible.onnx.mapWeights} is not {@code false}): the
 * graph names the safetensors file itself as the tensor's external data, with the tensor's offset and length, and
 * ONNX Runtime maps the file. The offsets are whatever the safetensors layout gives: the data section starts at
 * {@code 8 + header length} (writers pad the header to a multiple of 8) and tensors follow back to back, so an F32
 * tensor is 4-byte aligned but almost never page-aligned. ONNX Runtime 1.29.0 accepts such offsets (it maps from the
 * page boundary below), as {@code OnnxMappedWeightsTest} checks; weights that ONNX Runtime prepacks (the MatMul
 * weights) still get one private copy, the embedding table that only a Gather reads stays file-backed.
 *
 * <p>A BF16 or F16 embedding table, which only a Gather reads, is mapped in its own dtype ({@link #lookupTable}), so
 * a large vocabulary costs neither a widened copy nor resident memory beyond the rows looked up. Quantised linear
 * weights ({@link #quantized}) are read from the files with positional reads, row by row, so loading never holds the
 * files' pages resident either, and are written to an {@link OnnxQuantFile} that ONNX Runtime maps weight by weight;
 * with one, the tensors that would be mapped from the model's files are copied into it too (ONNX Runtime takes
 * external data from one folder only).
 *
 * <p><b>Copied</b> (F16 and BF16, which the reader widens to F32 first, or when mapping is switched off): declared as
 * external data and supplied as an {@link OnnxTensor} over the reader's F32 view; ONNX Runtime copies it into its own
 * memory while the session is created (shared/reference/onnx-decoder.md section 7), so memory peaks at twice these
 * weights during loading. Either way the reader may be closed once the session exists. Not thread-safe.
 */
final class OnnxWeights implements AutoCloseable {

    static final String MAP_PROPERTY = "crucible.onnx.mapWeights";

    private final SafetensorsReader reader;
    private final OrtEnvironment env;
    private final boolean map;
    private final Map<String, OnnxTensor> supplied = new LinkedHashMap<>();
    private final Map<String, Boolean> declared = new LinkedHashMap<>();
    private final Arena arena = Arena.ofShared();
    private final OnnxQuantFile scratch;
    private Path folder;

    /**
     * @param quantised whether linear weights will be quantised: then (with mapping on) they go through an
     *                  {@link OnnxQuantFile}, whose folder becomes the one every file weight is named in
     * @throws IOException when that scratch folder cannot be made
     */
    OnnxWeights(SafetensorsReader reader, OrtEnvironment env, boolean quantised) throws IOException {
        this.reader = reader;
        this.env = env;
        this.map = !"false".equalsIgnoreCase(System.getProperty(MAP_PROPERTY, "true").strip());
        this.scratch = map && quantised ? OnnxQuantFile.create() : null;
        this.folder = scratch == null ? null : scratch.dir();
    }

    /**
     * Declares {@code name} in {@code graph}, once however often it is used, and returns the name to wire.
     *
     * @throws EngineException {@link EngineException.Reason#INVALID_MODEL} for a missing or misshaped tensor,
     *                         {@link EngineException.Reason#UNSUPPORTED_DTYPE} for a dtype without an F32 view
     */
    String use(OnnxGraph graph, String name, long... shape) {
        if (declared.containsKey(name)) {
            return name;
        }
        TensorInfo info = check(name, shape);
        if (info.dtype() == DType.F32 && mapped(graph, name, DataType.FLOAT, shape)) {
            return name;
        }
        try {
            supplied.put(name, OnnxTensor.createTensor(env, reader.f32Buffer(name).asFloatBuffer(), shape));
        } catch (OrtException e) {
            throw new EngineException(EngineException.Reason.RUNTIME_UNAVAILABLE, "cannot wrap tensor '" + name
                    + "' for ONNX Runtime: " + e.getMessage(), e);
        }
        graph.externalWeight(name, DataType.FLOAT, Float.BYTES, shape);
        declared.put(name, false);
        return name;
    }

    /**
     * Quantises the linear weight {@code name [out, in]} to {@code bits} in blocks of {@code block} inputs
     * ({@link OnnxBlockQuant}) as it reads it,
     * row by row without a widened copy, and declares its two parts, once however often it is used: the packed values
     * {@code <name>.q<bits>} (uint8 {@code [out, blocks, block * bits / 8]}) and the scales {@code <name>.scales}
     * (float {@code [out, blocks]}); returns their names. The packed copies live until {@link #close()}: ONNX Runtime
     * copies them while the session is created.
     */
    String[] quantized(OnnxGraph graph, String name, long out, long in, int bits, int block) {
        String values = name + ".q" + bits;
        String scales = name + ".scales";
        if (declared.containsKey(values)) {
            return new String[] {values, scales};
        }
        F32Weights.checkShape(reader, "onnx", name, out, in);
        long[] packedShape = {out, OnnxBlockQuant.blocksOf(in, block), OnnxBlockQuant.blockBytes(bits, block)};
        long[] scaleShape = {out, OnnxBlockQuant.blocksOf(in, block)};
        if (scratch != null) {
            try (Arena held = Arena.ofShared()) {
                OnnxBlockQuant q = OnnxBlockQuant.quantize((row, into) -> reader.readF32(name, (long) row * in,
                        into), (int) out, (int) in, bits, block, held);
                graph.fileWeight(values, DataType.UINT8, OnnxQuantFile.FILE, scratch.append(q.packed()),
                        q.packed().byteSize(), packedShape);
                graph.fileWeight(scales, DataType.FLOAT, OnnxQuantFile.FILE, scratch.append(q.scales()),
                        q.scales().byteSize(), scaleShape);
            }
            declared.put(values, true);
            declared.put(scales, true);
            return new String[] {values, scales};
        }
        OnnxBlockQuant q = OnnxBlockQuant.quantize((row, into) -> reader.readF32(name, (long) row * in, into),
                (int) out, (int) in, bits, block, arena);
        try {
            supplied.put(values, OnnxTensor.createTensor(env, q.packed().asByteBuffer(), packedShape,
                    OnnxJavaType.UINT8));
            FloatBuffer scale = q.scales().asByteBuffer().order(ByteOrder.nativeOrder()).asFloatBuffer();
            supplied.put(scales, OnnxTensor.createTensor(env, scale, scaleShape));
        } catch (OrtException e) {
            throw new EngineException(EngineException.Reason.RUNTIME_UNAVAILABLE, "cannot wrap the int" + bits
                    + " form of '" + name + "' for ONNX Runtime: " + e.getMessage(), e);
        }
        graph.externalWeight(values, DataType.UINT8, 1, packedShape);
        graph.externalWeight(scales, DataType.FLOAT, Float.BYTES, scaleShape);
        declared.put(values, false);
        declared.put(scales, false);
        return new String[] {values, scales};
    }

    /**
     * A table only a {@code Gather} reads (the input embedding), declared in the dtype it is stored in when that is
     * BF16 or F16 and it can be mapped, so that only the rows looked up become resident and nothing is widened;
     * else as {@link #use}.
     */
    Table lookupTable(OnnxGraph graph, String name, long... shape) {
        TensorInfo info = F32Weights.checkShape(reader, "onnx", name, shape);
        String narrow = name + "." + info.dtype().name().toLowerCase(java.util.Locale.ROOT);
        DataType type = info.dtype() == DType.BF16 ? DataType.BFLOAT16 : DataType.FLOAT16;
        if (info.dtype() != DType.F32 && (declared.containsKey(narrow) || mapped(graph, name, narrow, type, shape))) {
            return new Table(narrow, false);
        }
        return new Table(use(graph, name, shape), true);
    }

    /** A lookup table's initializer, and whether it is F32 or needs a {@code Cast} to F32 after the lookup. */
    record Table(String name, boolean f32) {
    }

    private boolean mapped(OnnxGraph graph, String name, DataType type, long... shape) {
        return mapped(graph, name, name, type, shape);
    }

    /** Declares {@code name}'s stored bytes as the file weight {@code as} when mapping is on and the folder fits. */
    private boolean mapped(OnnxGraph graph, String name, String as, DataType type, long... shape) {
        TensorLocation at = reader.location(name);
        Path parent = at.file().toAbsolutePath().getParent();
        if (!map || (scratch == null && folder != null && !folder.equals(parent))) {
            return false;
        }
        if (scratch != null) {
            graph.fileWeight(as, type, OnnxQuantFile.FILE, scratch.copy(at.file(), at.offset(), at.length()),
                    at.length(), shape);
        } else {
            folder = parent;
            graph.fileWeight(as, type, at.file().getFileName().toString(), at.offset(), at.length(), shape);
        }
        declared.put(as, true);
        return true;
    }

    /** {@link #use} when {@code present}, else null (an absent bias or norm). */
    String useIf(boolean present, OnnxGraph graph, String name, long... shape) {
        return present ? use(graph, name, shape) : null;
    }

    /** The tensors to pass to {@code SessionOptions.addExternalInitializers}; valid until {@link #close()}. */
    Map<String, OnnxTensorLike> initializers() {
        return Map.copyOf(supplied);
    }

    /** The folder of the files weights are referenced in; null when every weight is copied. */
    Path folder() {
        return folder;
    }

    private TensorInfo check(String name, long... shape) {
        return F32Weights.check(reader, "onnx", name, shape);
    }

    /** Frees the wrappers and the quantised copies, and deletes the scratch folder (not the reader). */
    @Override
    public void close() {
        supplied.values().forEach(OnnxTensor::close);
        supplied.clear();
        arena.close();
        if (scratch != null) {
            scratch.close();
        }
    }
}
