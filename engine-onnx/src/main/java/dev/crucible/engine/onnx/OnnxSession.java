package dev.crucible.engine.onnx;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
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
    private final OnnxLoraInputs lora;
    private final int layers;
    private final int vocab;

    /** @param lora the LoRA inputs' maker when the graph has LoRA inputs, else null; closed with this session */
    OnnxSession(OrtEnvironment env, OrtSession session, OnnxLoraInputs lora, int layers, int vocab) {
        this.env = env;
        this.session = session;
        this.lora = lora;
        this.layers = layers;
        this.vocab = vocab;
    }

    /** Whether the graph applies LoRA adapters. */
    boolean appliesAdapters() {
        return lora != null;
    }

    /** Runs {@code run}; returns its logits, {@code run.logitRows().length} rows of the vocabulary's size. */
    float[][] run(OnnxRun run) throws OrtException {
        OnnxTensor[] kv = run.pool().views(env, run.first(), run.batch());
        Map<String, OnnxTensor> inputs = new HashMap<>();
        Map<String, OnnxTensor> shared = new HashMap<>();
        List<OnnxTensor> made = new ArrayList<>();
        try {
            if (lora != null) {
                lora.add(shared, made, run.adapters(), run.live());
            }
            inputs.put(OnnxDecoderGraph.INPUT_IDS, OnnxTensor.createTensor(env, LongBuffer.wrap(run.inputIds()),
                    new long[] {run.batch(), run.seq()}));
            inputs.put(OnnxDecoderGraph.SEQLENS_K, OnnxTensor.createTensor(env, IntBuffer.wrap(run.seqlensK()),
                    new long[] {run.batch()}));
            inputs.put(OnnxDecoderGraph.TOTAL_LENGTH, OnnxTensor.createTensor(env, run.totalLength()));
            inputs.put(OnnxDecoderGraph.LOGIT_ROWS, OnnxTensor.createTensor(env, LongBuffer.wrap(run.logitRows()),
                    new long[] {run.logitRows().length}));
            Map<String, OnnxTensor> all = new HashMap<>(inputs);
            all.putAll(shared);
            Map<String, OnnxValue> presents = new HashMap<>();
            for (int l = 0; l < layers; l++) {
                all.put(OnnxDecoderGraph.pastKey(l), kv[2 * l]);
                all.put(OnnxDecoderGraph.pastValue(l), kv[2 * l + 1]);
                presents.put(OnnxDecoderGraph.presentKey(l), kv[2 * l]);
                presents.put(OnnxDecoderGraph.presentValue(l), kv[2 * l + 1]);
            }
            try (OrtSession.Result result = session.run(all, Set.of(OnnxDecoderGraph.LOGITS), presents)) {
                FloatBuffer flat = ((OnnxTensor) result.get(OnnxDecoderGraph.LOGITS).orElseThrow()).getFloatBuffer();
                float[][] rows = new float[run.logitRows().length][vocab];
                for (float[] row : rows) {
                    flat.get(row);
                }
                return rows;
            }
        } finally {
            inputs.values().forEach(OnnxTensor::close);
            made.forEach(OnnxTensor::close);
            OnnxKvPool.close(kv);
        }
    }

    @Override
    public void close() {
        if (lora != null) {
            lora.close();
        }
        try {
            session.close();
        } catch (OrtException e) {
            throw new IllegalStateException("cannot close the ONNX Runtime session: " + e.getMessage(), e);
        }
    }
}
