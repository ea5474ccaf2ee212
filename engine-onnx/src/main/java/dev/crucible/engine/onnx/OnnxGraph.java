package dev.crucible.engine.onnx;

import ai.onnx.proto.OnnxMl;
import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import ai.onnx.proto.OnnxMl.TensorShapeProto;
import ai.onnx.proto.OnnxMl.TypeProto;
import ai.onnx.proto.OnnxMl.ValueInfoProto;
import com.google.protobuf.ByteString;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A thin layer over the ONNX protobuf builders (Tribuo's {@code OnnxMl}): graph inputs and outputs with named or fixed
 * dimensions, nodes with attributes, small constants stored in the model and large weights declared as external data
 * (their bytes reach ONNX Runtime separately). Produces a model of IR version 10 importing opset 21 of the default
 * domain and version 1 of {@code com.microsoft}, the imports ONNX Runtime's contrib ops need. Not thread-safe.
 */
final class OnnxGraph {

    static final String MS = "com.microsoft";
    private static final int IR_VERSION = 10;
    private static final int DEFAULT_OPSET = 21;

    private final OnnxMl.GraphProto.Builder graph = OnnxMl.GraphProto.newBuilder().setName("crucible-decoder");
    private int nodes;

    /** A graph input; each dimension is a fixed {@code Long}/{@code Integer} or a symbolic {@code String}. */
    void input(String name, TensorProto.DataType type, Object... dims) {
        graph.addInput(valueInfo(name, type, dims));
    }

    /** A graph output, dimensions as in {@link #input}. */
    void output(String name, TensorProto.DataType type, Object... dims) {
        graph.addOutput(valueInfo(name, type, dims));
    }

    /** Adds a node of the default domain; an empty string in {@code inputs} or {@code outputs} skips that slot. */
    void node(String op, String[] inputs, String[] outputs, AttributeProto... attributes) {
        node("", op, inputs, outputs, attributes);
    }

    /** Adds a node of {@code domain} ({@code ""} for the default one). */
    void node(String domain, String op, String[] inputs, String[] outputs, AttributeProto... attributes) {
        NodeProto.Builder n = NodeProto.newBuilder().setOpType(op).setDomain(domain).setName(op + "_" + nodes++);
        for (String in : inputs) {
            n.addInput(in);
        }
        for (String out : outputs) {
            n.addOutput(out);
        }
        for (AttributeProto a : attributes) {
            n.addAttribute(a);
        }
        graph.addNode(n);
    }

    /** A small int64 constant stored in the model (shapes, indices). */
    void int64Constant(String name, long... values) {
        ByteBuffer bytes = ByteBuffer.allocate(values.length * Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (long v : values) {
            bytes.putLong(v);
        }
        graph.addInitializer(TensorProto.newBuilder().setName(name).addDims(values.length)
                .setDataType(TensorProto.DataType.INT64.getNumber()).setRawData(ByteString.copyFrom(bytes.flip())));
    }

    /** A float32 constant stored in the model; meant for tensors of a few megabytes at most (rotary tables). */
    void floatConstant(String name, float[] values, long... dims) {
        ByteBuffer bytes = ByteBuffer.allocate(values.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asFloatBuffer().put(values);
        TensorProto.Builder t = TensorProto.newBuilder().setName(name)
                .setDataType(TensorProto.DataType.FLOAT.getNumber()).setRawData(ByteString.copyFrom(bytes));
        for (long d : dims) {
            t.addDims(d);
        }
        graph.addInitializer(t);
    }

    /**
     * A weight whose bytes are not in the model: declared with {@code data_location=EXTERNAL}, to be supplied through
     * {@code SessionOptions.addExternalInitializers} under the same name.
     *
     * @param elementBytes the size of one element of {@code type}
     */
    void externalWeight(String name, TensorProto.DataType type, int elementBytes, long... dims) {
        long bytes = elementBytes;
        TensorProto.Builder t = TensorProto.newBuilder().setName(name).setDataType(type.getNumber())
                .setDataLocation(TensorProto.DataLocation.EXTERNAL);
        for (long d : dims) {
            t.addDims(d);
            bytes *= d;
        }
        t.addExternalData(entry("location", "supplied-at-session-creation"));
        t.addExternalData(entry("offset", "0"));
        t.addExternalData(entry("length", Long.toString(bytes)));
        graph.addInitializer(t);
    }

    /**
     * A weight of {@code type} read by ONNX Runtime from a file, at {@code offset} for {@code length} bytes;
     * {@code location} is relative to the folder the session option
     * {@code session.model_external_initializers_file_folder_path} names (a model built from bytes has no folder of
     * its own).
     */
    void fileWeight(String name, TensorProto.DataType type, String location, long offset, long length,
            long... dims) {
        TensorProto.Builder t = TensorProto.newBuilder().setName(name)
                .setDataType(type.getNumber())
                .setDataLocation(TensorProto.DataLocation.EXTERNAL);
        for (long d : dims) {
            t.addDims(d);
        }
        t.addExternalData(entry("location", location));
        t.addExternalData(entry("offset", Long.toString(offset)));
        t.addExternalData(entry("length", Long.toString(length)));
        graph.addInitializer(t);
    }

    /** The serialised model. */
    byte[] toModelBytes() {
        return OnnxMl.ModelProto.newBuilder().setIrVersion(IR_VERSION).setProducerName("crucible")
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setDomain("").setVersion(DEFAULT_OPSET))
                .addOpsetImport(OnnxMl.OperatorSetIdProto.newBuilder().setDomain(MS).setVersion(1))
                .setGraph(graph).build().toByteArray();
    }

    static AttributeProto intAttr(String name, long value) {
        return AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.INT).setI(value).build();
    }

    static AttributeProto floatAttr(String name, float value) {
        return AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.FLOAT).setF(value)
                .build();
    }

    private static OnnxMl.StringStringEntryProto entry(String key, String value) {
        return OnnxMl.StringStringEntryProto.newBuilder().setKey(key).setValue(value).build();
    }

    private static ValueInfoProto valueInfo(String name, TensorProto.DataType type, Object... dims) {
        TensorShapeProto.Builder shape = TensorShapeProto.newBuilder();
        for (Object d : dims) {
            TensorShapeProto.Dimension.Builder dim = TensorShapeProto.Dimension.newBuilder();
            if (d instanceof String symbol) {
                dim.setDimParam(symbol);
            } else {
                dim.setDimValue(((Number) d).longValue());
            }
            shape.addDim(dim);
        }
        TypeProto.Tensor.Builder tensor = TypeProto.Tensor.newBuilder().setElemType(type.getNumber()).setShape(shape);
        return ValueInfoProto.newBuilder().setName(name).setType(TypeProto.newBuilder().setTensorType(tensor)).build();
    }
}
