package dev.crucible.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crucible.hf.HfJson;
import dev.crucible.hf.safetensors.SafetensorsReader;
import dev.crucible.hf.safetensors.TensorInfo;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The memory-bandwidth bound on decoding: a decoder at batch 1 reads every weight once per token, so no engine can
 * decode faster than {@code read bandwidth / weight bytes per token}. Measures the read bandwidth with the engines'
 * thread count, each thread summing its share of a 1 GiB array (far past the caches) in passes, and keeps the best
 * pass; and counts the weight bytes a token reads ({@link #weightBytes}).
 */
final class BandwidthProbe {

    /** The onnx engine's default quantisation block (its {@code OnnxBlockQuant.BLOCK}). */
    static final int ENGINE_BLOCK = 128;

    private static final int BYTES = 1 << 30;
    private static final int PASSES = 8;
    private static final String EMBEDDING = "model.embed_tokens.weight";

    private BandwidthProbe() {
    }

    /** {@code {read_gbs, weight_bytes_per_token, threads}} for the model in {@code hfDir}. */
    static ObjectNode run(Path hfDir, int threads) throws Exception {
        long[] data = new long[BYTES / Long.BYTES];
        for (int i = 0; i < data.length; i++) {
            data[i] = i;
        }
        double best = 0;
        long sink = 0;
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int pass = 0; pass < PASSES; pass++) {
                List<Callable<Long>> shares = new ArrayList<>();
                int per = data.length / threads;
                for (int t = 0; t < threads; t++) {
                    int from = t * per;
                    int to = t == threads - 1 ? data.length : from + per;
                    shares.add(() -> sum(data, from, to));
                }
                long start = System.nanoTime();
                for (Future<Long> share : pool.invokeAll(shares)) {
                    sink += share.get();
                }
                best = Math.max(best, (double) BYTES / (System.nanoTime() - start));
            }
        }
        ObjectNode out = HfJson.object();
        out.put("read_gbs", best);
        out.put("weight_bytes_per_token", weightBytes(hfDir));
        out.put("weight_bytes_per_token_int8", quantizedBytes(hfDir, 8));
        out.put("weight_bytes_per_token_int4", quantizedBytes(hfDir, 4));
        ObjectNode byBlock = out.putObject("weight_bytes_per_token_by_block");
        for (int bits : new int[] {4, 8}) {
            for (int block = 16; block <= 256; block *= 2) {
                byBlock.put(bits + "-" + block, quantizedBytes(hfDir, bits, block));
            }
        }
        out.put("threads", threads);
        out.put("checksum", sink);
        return out;
    }

    private static long sum(long[] data, int from, int to) {
        long s = 0;
        for (int i = from; i < to; i++) {
            s += data[i];
        }
        return s;
    }

    /**
     * The weight bytes one decoded token reads with linear weights quantised to {@code bits} as the onnx engine does
     * ({@code MatMulNBits}: per row and block of {@value #ENGINE_BLOCK}, {@code block * bits / 8} bytes of values and
     * an F32 scale): every matrix so, the lm_head included (the tied embedding as the head), vectors as F32, and no
     * embedding of an untied model (a token reads one row of it).
     */
    static long quantizedBytes(Path hfDir, int bits) throws IOException {
        return quantizedBytes(hfDir, bits, ENGINE_BLOCK);
    }

    /** {@link #quantizedBytes(Path, int)} in blocks of {@code block} weights ({@code -Dcrucible.onnx.blockSize}). */
    static long quantizedBytes(Path hfDir, int bits, int block) throws IOException {
        try (SafetensorsReader reader = SafetensorsReader.open(hfDir)) {
            boolean untied = reader.contains("lm_head.weight");
            long total = 0;
            for (TensorInfo t : reader.tensors()) {
                long[] d = t.dims();
                if (d.length == 2 && !(untied && t.name().equals(EMBEDDING))) {
                    total += d[0] * ((d[1] + block - 1) / block) * ((long) block * bits / 8 + Float.BYTES);
                } else if (d.length != 2) {
                    total += t.elementCount() * Float.BYTES;
                }
            }
            return total;
        }
    }

    /**
     * The weight bytes one decoded token reads: every tensor of the folder's safetensors, less the input embedding
     * when the model has a separate {@code lm_head} (a token reads one row of it).
     */
    static long weightBytes(Path hfDir) throws IOException {
        try (SafetensorsReader reader = SafetensorsReader.open(hfDir)) {
            long total = reader.tensors().stream().mapToLong(TensorInfo::byteSize).sum();
            if (reader.contains("lm_head.weight") && reader.contains(EMBEDDING)) {
                total -= reader.info(EMBEDDING).byteSize();
            }
            return total;
        }
    }
}
