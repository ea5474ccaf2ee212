package dev.crucible.engine.djl;

import dev.crucible.engine.spi.RunnerKvCache;
import dev.crucible.engine.spi.SequenceInput;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A forward batch packed end to end: the new tokens of every sequence in one row ({@code tokens}), each sequence a
 * contiguous run starting at {@code offsets[i]}. Matmuls run over all rows at once; attention runs per sequence over
 * its own run and its own cache, so sequences of different lengths need no padding and no cross-sequence mask.
 *
 * @param adapters  each sequence's adapter, null for the base model (an unmodifiable list that holds nulls)
 * @param positions each token's position in its sequence (its cache's length plus its index among the new tokens)
 */
record DjlPackedBatch(List<SequenceInput> inputs, List<DjlKvCache> caches, List<DjlLoraAdapter> adapters,
        long[] tokens, int[] positions, int[] offsets) {

    /** Checks every input (see {@link dev.crucible.engine.spi.ModelRunner}'s errors) before anything runs. */
    static DjlPackedBatch of(List<SequenceInput> inputs, DjlModelRunner runner) {
        List<DjlKvCache> caches = RunnerKvCache.checkBatch(inputs, DjlKvCache.class, runner.resources(),
                runner.vocabSize());
        List<DjlLoraAdapter> adapters = new ArrayList<>();
        int total = 0;
        for (int i = 0; i < inputs.size(); i++) {
            adapters.add(adapter(inputs.get(i), i, runner));
            total += inputs.get(i).length();
        }
        return pack(inputs, caches, Collections.unmodifiableList(adapters), total);
    }

    private static DjlLoraAdapter adapter(SequenceInput in, int i, DjlModelRunner runner) {
        if (in.adapter() == null) {
            return null;
        }
        if (!(in.adapter() instanceof DjlLoraAdapter adapter) || !adapter.belongsTo(runner.resources())) {
            throw new IllegalArgumentException("batch[" + i + "].adapter was not loaded by this model runner");
        }
        if (adapter.isClosed()) {
            throw new IllegalArgumentException("batch[" + i + "].adapter is closed");
        }
        return adapter;
    }

    private static DjlPackedBatch pack(List<SequenceInput> inputs, List<DjlKvCache> caches,
            List<DjlLoraAdapter> adapters, int total) {
        long[] tokens = new long[total];
        int[] positions = new int[total];
        int[] offsets = new int[inputs.size()];
        int row = 0;
        for (int i = 0; i < inputs.size(); i++) {
            offsets[i] = row;
            int start = caches.get(i).length();
            for (int j = 0; j < inputs.get(i).length(); j++, row++) {
                tokens[row] = inputs.get(i).tokenId(j);
                positions[row] = start + j;
            }
        }
        return new DjlPackedBatch(List.copyOf(inputs), List.copyOf(caches), adapters, tokens, positions, offsets);
    }

    int size() {
        return inputs.size();
    }

    int length(int sequence) {
        return inputs.get(sequence).length();
    }

    /** The rows whose logits are returned: every new row where asked, else the last one. */
    int[] logitRows() {
        List<Integer> rows = new ArrayList<>();
        for (int i = 0; i < size(); i++) {
            int first = inputs.get(i).allPositions() ? offsets[i] : offsets[i] + length(i) - 1;
            for (int r = first; r < offsets[i] + length(i); r++) {
                rows.add(r);
            }
        }
        return rows.stream().mapToInt(Integer::intValue).toArray();
    }
}
