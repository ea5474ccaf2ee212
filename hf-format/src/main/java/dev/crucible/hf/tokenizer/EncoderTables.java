package dev.crucible.hf.tokenizer;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Everything a {@link BpeEncoder} needs from a tokenizer.json: the vocabulary, the BPE merges, added tokens, the split
 * regex and normalizer, and the ids its post-processor puts around a single sequence.
 */
record EncoderTables(Map<String, Integer> vocab, BpeMerges merges, Map<String, Integer> addedIds,
        Set<Integer> specialIds, Pattern split, boolean nfc, List<Integer> prefix, List<Integer> suffix) {
}
