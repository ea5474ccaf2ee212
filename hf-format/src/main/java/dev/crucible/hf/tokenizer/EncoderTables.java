package dev.crucible.hf.tokenizer;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Everything a {@link BpeEncoder} needs from a tokenizer.json: the vocabulary, merge ranks, added tokens, the split
 * regex and flags, and the ids its post-processor puts around a single sequence.
 */
record EncoderTables(Map<String, Integer> vocab, Map<Merge, Integer> mergeRanks, Map<String, Integer> addedIds,
        Set<Integer> specialIds, Pattern split, boolean nfc, boolean ignoreMerges, List<Integer> prefix,
        List<Integer> suffix) {
}
