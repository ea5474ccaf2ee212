package dev.crucible.engine.onnx;

import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.LoraAdapter;
import dev.crucible.engine.spi.SequenceInput;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Checks a forward batch before anything is computed, so every refusal leaves every cache unchanged: at least one
 * sequence; each cache this runner's, open and in the batch once; every token id in the vocabulary; room in each cache
 * for its new tokens; each adapter this runner's and open.
 */
final class OnnxBatchCheck {

    private OnnxBatchCheck() {
    }

    /** The batch's caches in order; a refusal is an {@link IllegalArgumentException} naming the sequence. */
    static List<OnnxKvCache> caches(List<SequenceInput> batch, OnnxModelRunner runner, int vocabSize) {
        if (batch == null || batch.isEmpty()) {
            throw new IllegalArgumentException("batch must hold at least one sequence");
        }
        Set<KvCache> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<OnnxKvCache> caches = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            SequenceInput in = batch.get(i);
            if (!(in.cache() instanceof OnnxKvCache cache) || !cache.belongsTo(runner.resources())) {
                throw new IllegalArgumentException("sequence " + i + ": the cache was not made by this model runner");
            }
            if (cache.isClosed()) {
                throw new IllegalArgumentException("sequence " + i + ": the cache is closed");
            }
            if (!seen.add(cache)) {
                throw new IllegalArgumentException("sequence " + i + ": the same cache is in the batch twice");
            }
            for (int t = 0; t < in.length(); t++) {
                int id = in.tokenId(t);
                if (id < 0 || id >= vocabSize) {
                    throw new IllegalArgumentException("sequence " + i + ": token id " + id + " at " + t
                            + " is outside the vocabulary [0, " + vocabSize + ")");
                }
            }
            if (in.length() > cache.remaining()) {
                throw new IllegalArgumentException("sequence " + i + ": " + in.length() + " new tokens but the cache "
                        + "has room for " + cache.remaining() + " (capacity " + cache.capacity() + ", holding "
                        + cache.length() + ")");
            }
            caches.add(cache);
        }
        return caches;
    }

    /** Refuses an adapter another runner loaded, or one that is closed, naming the sequence. */
    static void adapters(List<SequenceInput> batch, OnnxModelRunner runner) {
        for (int i = 0; i < batch.size(); i++) {
            LoraAdapter adapter = batch.get(i).adapter();
            if (adapter == null) {
                continue;
            }
            if (!(adapter instanceof OnnxLoraAdapter own) || !own.belongsTo(runner.resources())) {
                throw new IllegalArgumentException("sequence " + i + ": the adapter was not loaded by this model "
                        + "runner");
            }
            if (own.isClosed()) {
                throw new IllegalArgumentException("sequence " + i + ": the adapter is closed");
            }
        }
    }
}
