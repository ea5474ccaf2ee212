package dev.crucible.engine.onnx;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The decoder graph's ONNX Runtime session and how one {@link OnnxRun} is fed to it: the pool's key/value buffers are
 * passed as the pasts and bound as the presents (the same memory, so GroupQueryAttention writes the new keys and
 * values in place and nothing of the cache is copied), the small per-run inputs are made fresh, and only the logits
 * come back. Not thread-safe: used under the runner's lock.
 */
final class OnnxSession implements AutoCloseable {

    private final OrtEnvironment env;
    private final OrtSession session;
    private final int layers;
    private final int vocab;

    OnnxSession(OrtEnvironment env, OrtSession session, int layers, int vocab) {
        this.env = env;
        this.session = session;
        this.layers = layers;
        this.vocab = vocab;
    }

    /** Runs {@code run}; returns its logits, {@code run.logitRows().length} rows of the vocabulary's size. */
    float[][] run(OnnxRun run) throws OrtException {
        OnnxTensor[] kv = run.pool().views(env, run.first(), run.batch());
        Map<String, OnnxTensor> inputs = new HashMap<>();
        try {
            inputs.put(OnnxDecoderGraph.INPUT_IDS, OnnxTensor.createTensor(env, LongBuffer.wrap(run.inputIds()),
                    new long[] {run.batch(), run.seq()}));
            inputs.put(OnnxDecoderGraph.SEQLENS_K, OnnxTensor.createTensor(env, IntBuffer.wrap(run.seqlensK()),
                    new long[] {run.batch()}));
            inputs.put(OnnxDecoderGraph.TOTAL_LENGTH, OnnxTensor.createTensor(env, run.totalLength()));
            inputs.put(OnnxDecoderGraph.LOGIT_ROWS, OnnxTensor.createTensor(env, LongBuffer.wrap(run.logitRows()),
                    new long[] {run.logitRows().length}));
            Map<String, OnnxValue> presents = new HashMap<>();
            for (int l = 0; l < layers; l++) {
                inputs.put(OnnxDecoderGraph.pastKey(l), kv[2 * l]);
                inputs.put(OnnxDecoderGraph.pastValue(l), kv[2 * l + 1]);
                presents.put(OnnxDecoderGraph.presentKey(l), kv[2 * l]);
                presents.put(OnnxDecoderGraph.presentValue(l), kv[2 * l + 1]);
            }
            try (OrtSession.Result result = session.run(inputs, Set.of(OnnxDecoderGraph.LOGITS), presents)) {
                FloatBuffer flat = ((OnnxTensor) result.get(OnnxDecoderGraph.LOGITS).orElseThrow()).getFloatBuffer();
                float[][] rows = new float[run.logitRows().length][vocab];
                for (float[] row : rows) {
                    flat.get(row);
                }
                return rows;
            }
        } finally {
            for (int l = 0; l < layers; l++) {
                inputs.remove(OnnxDecoderGraph.pastKey(l));
                inputs.remove(OnnxDecoderGraph.pastValue(l));
            }
            inputs.values().forEach(OnnxTensor::close);
            OnnxKvPool.close(kv);
        }
    }

    @Override
    public void close() {
        try {
            session.close();
        } catch (OrtException e) {
            throw new IllegalStateException("cannot close the ONNX Runtime session: " + e.getMessage(), e);
        }
    }
}
