package dev.crucible.engine.onnx;

import ai.onnx.proto.OnnxMl.TensorProto;
import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxTensorLike;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.lang.foreign.Arena;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A manual measurement, not a test: how fast ONNX Runtime's products read their weights when memory is not what
 * bounds them. One graph per case chains batch-1 products ({@code x -> up -> down -> up ...}, so no two nodes are the
 * same and none can be folded away) over weights of the 0.5B shape's MLP ({@code [4864, 896]} and {@code [896, 4864]}),
 * int4 ({@code MatMulNBits}, the engine's block and accuracy level) and F32 ({@code FusedMatMul}), with the weights
 * either one pair reused through the chain (4.4 MB at int4 after packing, so the products read from the caches) or
 * 24 pairs, one per layer (106 MB at int4: more than the 32 MB L3, read from memory as a decode step reads them).
 * Prints the weight bytes each product reads per second, median of the runs, on 1 and 2 threads.
 * Run: {@code bench/onnx kernels}. It sits in the engine's package for the engine's graph writer and quantiser.
 */
public final class OnnxKernelProbe {

    private static final int HIDDEN = 896;
    private static final int FFN = 4864;
    private static final int CHAIN = 48;
    private static final int RUNS = 60;

    private OnnxKernelProbe() {
    }

    public static void main(String[] args) throws OrtException {
        int block = Integer.getInteger("crucible.onnx.blockSize", OnnxBlockQuant.BLOCK);
        System.out.printf("products of batch 1 over [%d, %d] and [%d, %d] weights, chained %d deep; int4 blocks of %d,"
                + " accuracy level 4%n", FFN, HIDDEN, HIDDEN, FFN, CHAIN, block);
        System.out.println("| weights | threads | int4 GB/s of packed weights | F32 GB/s | int4 products/ms |");
        for (int threads : new int[] {1, 2}) {
            System.setProperty(OnnxRuntime.THREADS_PROPERTY, Integer.toString(threads));
            OnnxRuntime runtime = new OnnxRuntime();
            for (int pairs : new int[] {1, CHAIN / 2}) {
                Case int4 = new Case(runtime, pairs, true, block);
                Case f32 = new Case(runtime, pairs, false, block);
                double int4Ms = int4.medianMs();
                double f32Ms = f32.medianMs();
                System.out.printf("| %s | %d | %.1f | %.1f | %.1f |%n",
                        pairs == 1 ? "one pair, reused (from cache)" : pairs + " pairs (from memory)", threads,
                        int4.bytesPerRun() / int4Ms / 1e6, f32.bytesPerRun() / f32Ms / 1e6, CHAIN / int4Ms);
            }
        }
    }

    /** One chain of products and what it reads per run. */
    private static final class Case {

        private final OnnxRuntime runtime;
        private final byte[] model;
        private final Map<String, OnnxTensorLike> initializers = new HashMap<>();
        private final Arena arena = Arena.ofShared();
        private long bytesPerRun;

        Case(OnnxRuntime runtime, int pairs, boolean int4, int block) throws OrtException {
            this.runtime = runtime;
            OnnxGraph g = new OnnxGraph();
            g.input("x", TensorProto.DataType.FLOAT, 1, HIDDEN);
            g.output("y", TensorProto.DataType.FLOAT, 1, HIDDEN);
            Random random = new Random(7);
            List<String[]> weights = new ArrayList<>();
            for (int p = 0; p < pairs; p++) {
                weights.add(new String[] {weight(g, "up" + p, FFN, HIDDEN, int4, block, random),
                    weight(g, "down" + p, HIDDEN, FFN, int4, block, random)});
            }
            String x = "x";
            for (int i = 0; i < CHAIN; i++) {
                boolean up = i % 2 == 0;
                String[] pair = weights.get((i / 2) % pairs);
                String name = up ? pair[0] : pair[1];
                String out = i == CHAIN - 1 ? "y" : "h" + i;
                long n = up ? FFN : HIDDEN;
                long k = up ? HIDDEN : FFN;
                if (int4) {
                    g.node(OnnxGraph.MS, "MatMulNBits", new String[] {x, name + ".q", name + ".s"},
                            new String[] {out}, OnnxGraph.intAttr("K", k), OnnxGraph.intAttr("N", n),
                            OnnxGraph.intAttr("bits", 4), OnnxGraph.intAttr("block_size", block),
                            OnnxGraph.intAttr("accuracy_level", 4));
                    bytesPerRun += n * OnnxBlockQuant.blocksOf(k, block)
                            * (OnnxBlockQuant.blockBytes(4, block) + Float.BYTES);
                } else {
                    g.node(OnnxGraph.MS, "FusedMatMul", new String[] {x, name}, new String[] {out},
                            OnnxGraph.intAttr("transB", 1));
                    bytesPerRun += n * k * Float.BYTES;
                }
                x = out;
            }
            this.model = g.toModelBytes();
        }

        private String weight(OnnxGraph g, String name, int n, int k, boolean int4, int block, Random random)
                throws OrtException {
            float[] w = new float[n * k];
            for (int i = 0; i < w.length; i++) {
                w[i] = (float) random.nextGaussian() * 0.02f;
            }
            OrtEnvironment env = runtime.env();
            if (!int4) {
                g.externalWeight(name, TensorProto.DataType.FLOAT, Float.BYTES, n, k);
                initializers.put(name, OnnxTensor.createTensor(env, FloatBuffer.wrap(w), new long[] {n, k}));
                return name;
            }
            OnnxBlockQuant q = OnnxBlockQuant.quantize((row, into) -> System.arraycopy(w, row * k, into, 0, k), n, k,
                    4, block, arena);
            long[] packed = {n, OnnxBlockQuant.blocksOf(k, block), OnnxBlockQuant.blockBytes(4, block)};
            long[] scales = {n, OnnxBlockQuant.blocksOf(k, block)};
            g.externalWeight(name + ".q", TensorProto.DataType.UINT8, 1, packed);
            g.externalWeight(name + ".s", TensorProto.DataType.FLOAT, Float.BYTES, scales);
            initializers.put(name + ".q", OnnxTensor.createTensor(env, q.packed().asByteBuffer(), packed,
                    OnnxJavaType.UINT8));
            initializers.put(name + ".s", OnnxTensor.createTensor(env,
                    q.scales().asByteBuffer().order(ByteOrder.nativeOrder()).asFloatBuffer(), scales));
            return name;
        }

        long bytesPerRun() {
            return bytesPerRun;
        }

        double medianMs() throws OrtException {
            OrtEnvironment env = runtime.env();
            try (OrtSession.SessionOptions options = runtime.options()) {
                options.addExternalInitializers(initializers);
                try (OrtSession session = env.createSession(model, options);
                        OnnxTensor x = OnnxTensor.createTensor(env, FloatBuffer.wrap(new float[HIDDEN]),
                                new long[] {1, HIDDEN})) {
                    double[] ms = new double[RUNS];
                    for (int i = -10; i < RUNS; i++) {
                        long start = System.nanoTime();
                        try (OrtSession.Result ignored = session.run(Map.of("x", x))) {
                            if (i >= 0) {
                                ms[i] = (System.nanoTime() - start) / 1e6;
                            }
                        }
                    }
                    Arrays.sort(ms);
                    return ms[RUNS / 2];
                }
            } finally {
                initializers.values().forEach(OnnxTensorLike::close);
                arena.close();
            }
        }
    }
}
