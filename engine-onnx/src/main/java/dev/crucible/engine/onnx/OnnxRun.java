package dev.crucible.engine.onnx;

import dev.crucible.engine.spi.SequenceInput;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One session run over rows {@code [first, first + batch)} of a pool, {@code seq} new tokens per row, and which
 * logits rows belong to which sequence of the forward batch.
 *
 * <p>How a forward batch becomes runs ({@link #plan}): the one-token sequences (decoding) of one pool share a run
 * over their rows, which the pool first makes adjacent ({@link OnnxKvPool#gather}), so every row of the run is one of
 * them (each row's new key/value lands at {@code seqlens_k[row]}, shared/reference/onnx-decoder.md section 3). Every
 * longer sequence (a prefill or a prefill chunk) runs alone, since GroupQueryAttention takes the same number of new
 * tokens in every row. Decoding runs go first.
 *
 * @param inputIds  {@code [batch * seq]} row-major
 * @param seqlensK  per row: its total length after the run, minus one
 * @param logitRows the flattened {@code row * seq + position} entries whose logits are computed, sequence by sequence
 * @param members   the forward-batch index of each sequence with logits in this run, in {@code logitRows} order
 * @param counts    how many logits rows each member has
 * @param adapters  per row, the LoRA adapter of its sequence; null for the base model
 */
record OnnxRun(OnnxKvPool pool, int first, int batch, int seq, long[] inputIds, int[] seqlensK, long[] logitRows,
        int[] members, int[] counts, OnnxLoraAdapter[] adapters) {

    /** The longest total length among the rows: GroupQueryAttention's {@code total_sequence_length}. */
    int totalLength() {
        int max = 0;
        for (int s : seqlensK) {
            max = Math.max(max, s + 1);
        }
        return max;
    }

    static List<OnnxRun> plan(List<SequenceInput> batch, List<OnnxKvCache> caches) {
        Map<OnnxKvPool, List<Integer>> decoding = new LinkedHashMap<>();
        List<Integer> prefills = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            if (batch.get(i).length() == 1) {
                decoding.computeIfAbsent(caches.get(i).pool(), p -> new ArrayList<>()).add(i);
            } else {
                prefills.add(i);
            }
        }
        List<OnnxRun> runs = new ArrayList<>();
        decoding.forEach((pool, members) -> runs.add(decode(pool, members, batch, caches)));
        prefills.forEach(i -> runs.add(prefill(i, batch.get(i), caches.get(i))));
        return runs;
    }

    private static OnnxRun decode(OnnxKvPool pool, List<Integer> members, List<SequenceInput> batch,
            List<OnnxKvCache> caches) {
        int first = pool.gather(members.stream().map(caches::get).toList());
        int rows = members.size();
        long[] ids = new long[rows];
        int[] seqlens = new int[rows];
        long[] logitRows = new long[rows];
        int[] order = new int[rows];
        int[] counts = new int[rows];
        OnnxLoraAdapter[] adapters = new OnnxLoraAdapter[rows];
        for (int m = 0; m < rows; m++) {
            int i = members.get(m);
            int row = caches.get(i).slot() - first;
            ids[row] = batch.get(i).tokenId(0);
            seqlens[row] = caches.get(i).length();
            adapters[row] = (OnnxLoraAdapter) batch.get(i).adapter();
            logitRows[m] = row;
            order[m] = i;
            counts[m] = 1;
        }
        return new OnnxRun(pool, first, rows, 1, ids, seqlens, logitRows, order, counts, adapters);
    }

    private static OnnxRun prefill(int index, SequenceInput in, OnnxKvCache cache) {
        int n = in.length();
        long[] ids = new long[n];
        for (int t = 0; t < n; t++) {
            ids[t] = in.tokenId(t);
        }
        long[] logitRows;
        if (in.allPositions()) {
            logitRows = new long[n];
            for (int t = 0; t < n; t++) {
                logitRows[t] = t;
            }
        } else {
            logitRows = new long[] {n - 1};
        }
        return new OnnxRun(cache.pool(), cache.slot(), 1, n, ids, new int[] {cache.length() + n - 1}, logitRows,
                new int[] {index}, new int[] {logitRows.length},
                new OnnxLoraAdapter[] {(OnnxLoraAdapter) in.adapter()});
    }
}
