package dev.crucible.hf.tokenizer;

import dev.crucible.hf.ModelFormatException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * The BPE model step: one pre-tokenized, byte-mapped piece to ids, as Hugging Face's {@code Word::merge_all} does it:
 * a queue of adjacent pairs ordered by merge rank, then position; the lowest is merged, and the pairs it forms with
 * its neighbours join the queue. {@code O(n log n)} in the piece's length, so a long run of one character (a piece
 * the split regex leaves whole) costs no more than its length. Immutable and thread-safe.
 */
final class BpeMerges {

    /** Merge by pair of ids ({@code left << 32 | right}): its rank in the high half, the merged id in the low. */
    private final Map<Long, Long> merges;
    private final Map<String, Integer> vocab;
    private final boolean ignoreMerges;

    /**
     * @throws ModelFormatException when a merge's parts or result are not in the vocabulary (Hugging Face refuses
     *                              such a file too)
     */
    BpeMerges(Map<String, Integer> vocab, Iterable<Merge> mergesInRankOrder, boolean ignoreMerges) {
        this.vocab = vocab;
        this.ignoreMerges = ignoreMerges;
        this.merges = new HashMap<>();
        long rank = 0;
        for (Merge merge : mergesInRankOrder) {
            long left = id(merge.left());
            long right = id(merge.right());
            long merged = id(merge.merged());
            // As Hugging Face collects them: the rank is the line, and a repeated pair keeps its last line.
            merges.put(left << 32 | right, rank++ << 32 | merged);
        }
    }

    int[] apply(String word) {
        Integer whole = vocab.get(word);
        if (ignoreMerges && whole != null) {
            return new int[] {whole};
        }
        int n = word.length();
        if (n == 0) {
            return new int[0];
        }
        int[] ids = new int[n];
        int[] prev = new int[n];
        int[] next = new int[n];
        boolean[] gone = new boolean[n];
        for (int i = 0; i < n; i++) {
            Integer id = vocab.get(String.valueOf(word.charAt(i)));
            if (id == null) {
                throw new ModelFormatException("tokenizer.json: piece '" + word.charAt(i) + "' is not in the vocabulary");
            }
            ids[i] = id;
            prev[i] = i - 1;
            next[i] = i + 1 < n ? i + 1 : -1;
        }
        // Entries {rank, position, merged id}: lowest rank first, then leftmost.
        PriorityQueue<long[]> queue = new PriorityQueue<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0])
                : Long.compare(a[1], b[1]));
        for (int i = 0; i + 1 < n; i++) {
            offer(queue, i, ids[i], ids[i + 1]);
        }
        while (!queue.isEmpty()) {
            long[] top = queue.poll();
            int pos = (int) top[1];
            int right = next[pos];
            if (gone[pos] || right < 0) {
                continue;
            }
            Long merge = merges.get((long) ids[pos] << 32 | ids[right]);
            if (merge == null || (int) (long) merge != (int) top[2]) {
                continue; // stale: one of the two symbols has merged since this entry was queued
            }
            ids[pos] = (int) top[2];
            gone[right] = true;
            next[pos] = next[right];
            if (next[right] >= 0) {
                prev[next[right]] = pos;
            }
            if (prev[pos] >= 0) {
                offer(queue, prev[pos], ids[prev[pos]], ids[pos]);
            }
            if (next[pos] >= 0) {
                offer(queue, pos, ids[pos], ids[next[pos]]);
            }
        }
        int count = 0;
        int[] out = new int[n];
        for (int i = 0; i >= 0; i = next[i]) {
            out[count++] = ids[i];
        }
        return Arrays.copyOf(out, count);
    }

    private void offer(PriorityQueue<long[]> queue, int pos, int left, int right) {
        Long merge = merges.get((long) left << 32 | right);
        if (merge != null) {
            queue.add(new long[] {merge >>> 32, pos, (int) (long) merge});
        }
    }

    private long id(String token) {
        Integer id = vocab.get(token);
        if (id == null) {
            throw new ModelFormatException("tokenizer.json: merge token '" + token + "' is not in the vocabulary");
        }
        return id;
    }
}
