package dev.crucible.hf.tokenizer;

import java.util.List;

/**
 * A trained byte-level BPE vocabulary: tokens by id (the 256 byte characters first, in byte order, then one token
 * per new merge result) and merge rules by rank. Immutable.
 */
public record BpeModel(List<String> vocab, List<Merge> merges) {

    /** Copies the lists. */
    public BpeModel {
        vocab = List.copyOf(vocab);
        merges = List.copyOf(merges);
    }
}
