package dev.crucible.engine.onnx;

import dev.crucible.engine.spi.SequenceInput;
import java.util.ArrayList;
import java.util.List;

/**
 * One session run: the tokens of a forward batch that go through the decoder graph together, and which logits rows
 * belong to which sequence of the batch.
 *
 * <p>The graph's products run over the run's tokens as one list; its attention runs in two groups
 * (shared/reference/onnx-decoder.md section 3), since GroupQueryAttention takes the same number of new tokens in every
 * row and refuses several rows of more than one token after a past: the decoding group, one token on each of a range
 * of adjacent pool rows ({@link OnnxKvPool#gather}), and the piece group, the tokens of one prompt piece on its
 * sequence's row. So a step that decodes while a prompt is prefilled reads each weight once, as a decode step does,
 * instead of once for the decoding rows and again for the piece. A run has at least one real group; the other one,
 * if absent, is a one-token group on the pool's scratch cache ({@link OnnxKvPool#scratch}), whose output no token
 * takes, so neither attention node ever gets an empty input.
 *
 * <p>The tokens are ordered the decoding rows' first, then the piece's; the groups' attention outputs are laid side by
 * side in the same order (a scratch group taking one slot), and {@code tokenSlots} gives each token its slot.
 *
 * @param decode     the decoding rows' group
 * @param piece      the prompt piece's group
 * @param inputIds   the run's tokens
 * @param tokenSlots per token, its slot among the groups' outputs
 * @param logitRows  the tokens whose logits are computed, sequence by sequence
 * @param members    the forward-batch index of each sequence with logits in this run, in {@code logitRows} order
 * @param counts     how many logits rows each member has
 * @param adapters   the LoRA graph's rows, each its sequence's adapter (null for the base model): the decoding rows,
 *                   or the piece's one row; a run for the LoRA graph has one real group
 * @param headAdapters per logits row, its sequence's adapter
 */
record OnnxRun(OnnxKvPool pool, Group decode, Group piece, long[] inputIds, long[] tokenSlots, long[] logitRows,
        int[] members, int[] counts, OnnxLoraAdapter[] adapters, OnnxLoraAdapter[] headAdapters) {

    /**
     * One attention group: {@code rows} pool rows from {@code first}, {@code tokens[i]} the run's tokens it attends
     * for, {@code seqlensK} each row's total length after the run minus one; or the scratch group ({@code rows == 0}),
     * one token on the scratch cache.
     */
    record Group(int first, int rows, long[] tokens, int[] seqlensK) {

        static Group scratch() {
            return new Group(0, 0, new long[] {0}, new int[] {0});
        }

        boolean isScratch() {
            return rows == 0;
        }

        /** The group's output slots: one per token, the scratch group's one included. */
        int slots() {
            return tokens.length;
        }

        /** The longest total length among the rows: GroupQueryAttention's {@code total_sequence_length}. */
        int totalLength() {
            int max = 0;
            for (int s : seqlensK) {
                max = Math.max(max, s + 1);
            }
            return max;
        }
    }

    /** The rows the LoRA graph's per-row inputs are laid over: {@code [rows, -1, 0]} reshapes the run's tokens. */
    int loraRows() {
        return decode.isScratch() ? 1 : decode.rows();
    }

    /**
     * Plans the runs of a forward batch. The one-token sequences (decoding, or a prompt's last token) share the
     * decoding group of the first run; with {@code fuse}, the first longer sequence (a prefill or a chunk of one)
     * joins it as the piece group, and each other longer sequence runs alone. Without it (the LoRA graph, whose
     * per-row inputs cover one group) every longer sequence runs alone.
     */
    static List<OnnxRun> plan(List<SequenceInput> batch, List<OnnxKvCache> caches, boolean fuse) {
        List<Integer> decoding = new ArrayList<>();
        List<Integer> prompts = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            (batch.get(i).length() == 1 ? decoding : prompts).add(i);
        }
        List<OnnxRun> runs = new ArrayList<>();
        int alone = 0;
        if (!decoding.isEmpty()) {
            int first = caches.get(decoding.getFirst()).pool().gather(decoding.stream().map(caches::get).toList());
            Integer joining = fuse && !prompts.isEmpty() ? prompts.getFirst() : null;
            alone = joining == null ? 0 : 1;
            runs.add(of(batch, caches, decoding, first, joining));
        }
        for (int i : prompts.subList(alone, prompts.size())) {
            runs.add(of(batch, caches, List.of(), 0, i));
        }
        return runs;
    }

    /** A run of the decoding sequences {@code decoding} on rows from {@code first}, and the prompt {@code prompt}. */
    private static OnnxRun of(List<SequenceInput> batch, List<OnnxKvCache> caches, List<Integer> decoding, int first,
            Integer prompt) {
        int rows = decoding.size();
        int pieceTokens = prompt == null ? 0 : batch.get(prompt).length();
        int tokens = rows + pieceTokens;
        long[] ids = new long[tokens];
        long[] slots = new long[tokens];
        List<Integer> members = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        List<Long> logitRows = new ArrayList<>();
        OnnxLoraAdapter[] rowAdapters = new OnnxLoraAdapter[Math.max(1, rows)];
        Group decode = Group.scratch();
        if (rows > 0) {
            long[] decodeTokens = new long[rows];
            int[] seqlens = new int[rows];
            for (int i : decoding) {
                int row = caches.get(i).slot() - first;
                ids[row] = batch.get(i).tokenId(0);
                slots[row] = row;
                decodeTokens[row] = row;
                seqlens[row] = caches.get(i).length();
                rowAdapters[row] = (OnnxLoraAdapter) batch.get(i).adapter();
                members.add(i);
                counts.add(1);
                logitRows.add((long) row);
            }
            decode = new Group(first, rows, decodeTokens, seqlens);
        }
        Group piece = Group.scratch();
        if (prompt != null) {
            SequenceInput in = batch.get(prompt);
            OnnxKvCache cache = caches.get(prompt);
            long[] pieceIds = new long[pieceTokens];
            for (int t = 0; t < pieceTokens; t++) {
                ids[rows + t] = in.tokenId(t);
                slots[rows + t] = decode.slots() + t;
                pieceIds[t] = rows + t;
            }
            piece = new Group(cache.slot(), 1, pieceIds, new int[] {cache.length() + pieceTokens - 1});
            if (rows == 0) {
                rowAdapters[0] = (OnnxLoraAdapter) in.adapter();
            }
            members.add(prompt);
            int wanted = in.allPositions() ? pieceTokens : 1;
            counts.add(wanted);
            for (int t = pieceTokens - wanted; t < pieceTokens; t++) {
                logitRows.add((long) rows + t);
            }
        }
        OnnxLoraAdapter[] headAdapters = new OnnxLoraAdapter[logitRows.size()];
        for (int m = 0, row = 0; m < members.size(); m++) {
            for (int k = 0; k < counts.get(m); k++) {
                headAdapters[row++] = (OnnxLoraAdapter) batch.get(members.get(m)).adapter();
            }
        }
        return new OnnxRun(caches.getFirst().pool(), decode, piece, ids, slots,
                logitRows.stream().mapToLong(Long::longValue).toArray(),
                members.stream().mapToInt(Integer::intValue).toArray(),
                counts.stream().mapToInt(Integer::intValue).toArray(), rowAdapters, headAdapters);
    }
}
