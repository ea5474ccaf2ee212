package dev.crucible.engine.onnx;

import ai.onnx.proto.OnnxMl.TensorProto;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.nio.FloatBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;

/**
 * A manual measurement, not a test: whether F16 weights pay on this CPU through ONNX Runtime. Times one projection of
 * the 0.5B shape ({@code [m, 896] @ [896, 4864]}, the MLP's up projection) as F32 MatMul and as F16 MatMul (weights cast
 * to F16 once, constant-folded at load; activations cast in and out), at m = 1 (a decode step) and m = 32 (a prefill),
 * on {@code -Dcrucible.onnx.threads} threads (default 2). Run:
 * {@code bench/onnx f16}. It sits in the engine's package (in the bench's sources) for the engine's own runtime
 * and graph writer. Prints the median of 200 runs per case,
 * or the error ONNX Runtime gives when a kernel is missing.
 */
public final class OnnxF16Probe {

    private static final int IN = 896;
    private static final int OUT = 4864;

    private OnnxF16Probe() {
    }

    public static void main(String[] args) throws OrtException {
        System.setProperty(OnnxRuntime.THREADS_PROPERTY, System.getProperty(OnnxRuntime.THREADS_PROPERTY, "2"));
        OnnxRuntime runtime = new OnnxRuntime();
        System.out.println(runtime.describe());
        float[] w = new float[IN * OUT];
        Random random = new Random(1);
        for (int i = 0; i < w.length; i++) {
            w[i] = (float) random.nextGaussian() * 0.02f;
        }
        for (int m : new int[] {1, 32}) {
            for (boolean f16 : new boolean[] {false, true}) {
                String name = (f16 ? "f16" : "f32") + " m=" + m;
                try {
                    System.out.printf("%-8s median %.3f ms%n", name, time(runtime, graph(w, f16), m));
                } catch (OrtException e) {
                    System.out.println(name + " does not run: " + e.getMessage());
                }
            }
        }
    }

    private static byte[] graph(float[] w, boolean f16) {
        OnnxGraph g = new OnnxGraph();
        g.input("x", TensorProto.DataType.FLOAT, "m", IN);
        g.output("y", TensorProto.DataType.FLOAT, "m", OUT);
        g.floatConstant("w", w, IN, OUT);
        if (f16) {
            long half = TensorProto.DataType.FLOAT16.getNumber();
            g.node("Cast", new String[] {"w"}, new String[] {"w16"}, OnnxGraph.intAttr("to", half));
            g.node("Cast", new String[] {"x"}, new String[] {"x16"}, OnnxGraph.intAttr("to", half));
            g.node("MatMul", new String[] {"x16", "w16"}, new String[] {"y16"});
            g.node("Cast", new String[] {"y16"}, new String[] {"y"},
                    OnnxGraph.intAttr("to", TensorProto.DataType.FLOAT.getNumber()));
        } else {
            g.node("MatMul", new String[] {"x", "w"}, new String[] {"y"});
        }
        return g.toModelBytes();
    }

    private static double time(OnnxRuntime runtime, byte[] model, int m) throws OrtException {
        OrtEnvironment env = runtime.env();
        try (OrtSession.SessionOptions options = runtime.options();
                OrtSession session = env.createSession(model, options);
                OnnxTensor x = OnnxTensor.createTensor(env, FloatBuffer.wrap(new float[m * IN]), new long[] {m, IN})) {
            double[] ms = new double[200];
            for (int i = -20; i < ms.length; i++) {
                long start = System.nanoTime();
                try (OrtSession.Result ignored = session.run(Map.of("x", x))) {
                    if (i >= 0) {
                        ms[i] = (System.nanoTime() - start) / 1e6;
                    }
                }
            }
            Arrays.sort(ms);
            return ms[ms.length / 2];
        }
    }
}
