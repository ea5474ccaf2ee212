package dev.crucible.engine.onnx;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
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
 * values in place and nothing of the cache is copied; the pool keeps the tensors over them), the small per-run inputs
 * are made fresh, and the logits are written into a reused buffer, from which they are copied once into the caller's
 * arrays. Not thread-safe: used under the runner's lock.
 */
final class OnnxSession implements AutoCloseable {

    private final OrtEnvironment env;
    private final OrtSession session;
    private final OnnxLoraInputs lora;
    private final int layers;
    private final int vocab;
    private final Arena logitsArena = Arena.ofShared();
    private MemorySegment logitsMemory;
    /** The run options that give back ONNX Runtime's free arena memory after a run; made on first use. */
    private OrtSession.RunOptions shrinking;

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
        return run(run, false);
    }

    /**
     * Runs {@code run} as {@link #run(OnnxRun)}; with {@code shrinkArena}, ONNX Runtime then frees the regions of its
     * CPU arena that no tensor uses ({@code memory.enable_memory_arena_shrinkage}). The arena grows to the largest
     * run's intermediates (a 512-token prefill chunk's attention scores over a long context, a wide batch) and keeps
     * them otherwise, since ONNX Runtime never shrinks it on its own; the next run that needs them grows it again.
     */
    float[][] run(OnnxRun run, boolean shrinkArena) throws OrtException {
        int rows = run.logitRows().length;
        OnnxRun.Group decode = run.decode();
        OnnxRun.Group piece = run.piece();
        OnnxTensor[] decodeKv = cache(run.pool(), decode);
        OnnxTensor[] pieceKv = cache(run.pool(), piece);
        List<OnnxTensor> made = new ArrayList<>();
        try {
            Map<String, OnnxTensor> inputs = new HashMap<>();
            if (lora != null) {
                lora.add(inputs, made, run.adapters(), run.headAdapters());
                inputs.put(OnnxDecoderGraph.LORA_SHAPE, own(made, OnnxTensor.createTensor(env,
                        LongBuffer.wrap(new long[] {run.loraRows(), -1, 0}), new long[] {3})));
            }
            int tokens = run.inputIds().length;
            inputs.put(OnnxDecoderGraph.INPUT_IDS, own(made, OnnxTensor.createTensor(env,
                    LongBuffer.wrap(run.inputIds()), new long[] {1, tokens})));
            inputs.put(OnnxDecoderGraph.TOKEN_SLOTS, own(made, longs(run.tokenSlots())));
            inputs.put(OnnxDecoderGraph.DECODE_TOKENS, own(made, longs(decode.tokens())));
            inputs.put(OnnxDecoderGraph.PIECE_TOKENS, own(made, longs(piece.tokens())));
            inputs.put(OnnxDecoderGraph.SEQLENS_K, own(made, ints(decode.seqlensK())));
            inputs.put(OnnxDecoderGraph.TOTAL_LENGTH, own(made, OnnxTensor.createTensor(env, decode.totalLength())));
            inputs.put(OnnxDecoderGraph.PIECE_SEQLENS_K, own(made, ints(piece.seqlensK())));
            inputs.put(OnnxDecoderGraph.PIECE_TOTAL_LENGTH, own(made, OnnxTensor.createTensor(env,
                    piece.totalLength())));
            inputs.put(OnnxDecoderGraph.LOGIT_ROWS, own(made, longs(run.logitRows())));
            // Every output is bound to memory of ours: the caches in place, the logits into a reused buffer.
            FloatBuffer logits = logitsBuffer(rows);
            Map<String, OnnxValue> outputs = new HashMap<>();
            outputs.put(OnnxDecoderGraph.LOGITS, own(made, OnnxTensor.createTensor(env, logits,
                    new long[] {rows, vocab})));
            for (int l = 0; l < layers; l++) {
                inputs.put(OnnxDecoderGraph.pastKey(l), decodeKv[2 * l]);
                inputs.put(OnnxDecoderGraph.pastValue(l), decodeKv[2 * l + 1]);
                outputs.put(OnnxDecoderGraph.presentKey(l), decodeKv[2 * l]);
                outputs.put(OnnxDecoderGraph.presentValue(l), decodeKv[2 * l + 1]);
                inputs.put(OnnxDecoderGraph.piece(OnnxDecoderGraph.pastKey(l)), pieceKv[2 * l]);
                inputs.put(OnnxDecoderGraph.piece(OnnxDecoderGraph.pastValue(l)), pieceKv[2 * l + 1]);
                outputs.put(OnnxDecoderGraph.piece(OnnxDecoderGraph.presentKey(l)), pieceKv[2 * l]);
                outputs.put(OnnxDecoderGraph.piece(OnnxDecoderGraph.presentValue(l)), pieceKv[2 * l + 1]);
            }
            if (shrinkArena) {
                session.run(inputs, Set.of(), outputs, shrinkingOptions()).close();
            } else {
                session.run(inputs, Set.of(), outputs).close();
            }
            float[][] out = new float[rows][vocab];
            for (float[] row : out) {
                logits.get(row);
            }
            return out;
        } finally {
            made.forEach(OnnxTensor::close);
        }
    }

    private OnnxTensor longs(long[] values) throws OrtException {
        return OnnxTensor.createTensor(env, LongBuffer.wrap(values), new long[] {values.length});
    }

    private OnnxTensor ints(int[] values) throws OrtException {
        return OnnxTensor.createTensor(env, IntBuffer.wrap(values), new long[] {values.length});
    }

    /** The cache tensors {@code group} attends over: its rows of the pool, or the pool's scratch cache. */
    private OnnxTensor[] cache(OnnxKvPool pool, OnnxRun.Group group) throws OrtException {
        return group.isScratch() ? pool.scratch(env) : pool.views(env, group.first(), group.rows());
    }

    private OrtSession.RunOptions shrinkingOptions() throws OrtException {
        if (shrinking == null) {
            OrtSession.RunOptions options = new OrtSession.RunOptions();
            try {
                options.addRunConfigEntry("memory.enable_memory_arena_shrinkage", "cpu:0");
            } catch (OrtException | RuntimeException e) {
                options.close();
                throw e;
            }
            shrinking = options;
        }
        return shrinking;
    }

    private static OnnxTensor own(List<OnnxTensor> made, OnnxTensor tensor) {
        made.add(tensor);
        return tensor;
    }

    /** A direct buffer of {@code rows * vocab} floats at position 0, reusing the last one when it is big enough. */
    private FloatBuffer logitsBuffer(int rows) {
        long floats = (long) rows * vocab;
        if (logitsMemory == null || logitsMemory.byteSize() < floats * Float.BYTES) {
            logitsMemory = logitsArena.allocate(Math.max(floats, 2 * (logitsMemory == null ? 0
                    : logitsMemory.byteSize() / Float.BYTES)) * Float.BYTES, 64);
        }
        return logitsMemory.asSlice(0, floats * Float.BYTES).asByteBuffer().order(ByteOrder.nativeOrder())
                .asFloatBuffer();
    }

    @Override
    public void close() {
        if (lora != null) {
            lora.close();
        }
        logitsArena.close();
        if (shrinking != null) {
            shrinking.close();
        }
        try {
            session.close();
        } catch (OrtException e) {
            throw new IllegalStateException("cannot close the ONNX Runtime session: " + e.getMessage(), e);
        }
    }
}
