package dev.crucible.runtime.generation;

import dev.crucible.hf.tokenizer.Tokenizer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Turns one sequence's tokens into text deltas as vLLM's {@code detokenize_incrementally} does: decode a window from
 * the prefix offset with and without the new tokens and emit the difference, unless the decoded window ends in
 * U+FFFD (an incomplete UTF-8 character, held back until later tokens complete it). The last few prompt tokens seed
 * the window, so tokenizers that strip a leading space at the start of a decode still give the right spacing.
 *
 * <p>Special tokens: with {@code skipSpecialTokens} they are left out. When kept, {@code spacesBetweenSpecialTokens}
 * false follows vLLM's fast-tokenizer detokenizer: a special token right after another is written as its raw text,
 * without any space the tokenizer's decoder puts before it; true keeps the decoder's text. (HF's slow tokenizers join
 * special tokens with spaces instead, but Crucible's tokenizers are {@code tokenizer.json} ones, which vLLM decodes
 * with the fast rule; for byte-level BPE both settings give the same text.) Not thread-safe.
 */
final class IncrementalDetokenizer {

    /** vLLM's {@code INITIAL_INCREMENTAL_DETOKENIZATION_OFFSET}. */
    private static final int PROMPT_CONTEXT = 5;
    private static final char REPLACEMENT = '\uFFFD';

    private final Tokenizer tokenizer;
    private final boolean skipSpecialTokens;
    private final boolean rawConsecutiveSpecials;
    private boolean lastSpecial;
    private final List<Integer> ids = new ArrayList<>();
    private int prefixOffset;
    private int readOffset;

    IncrementalDetokenizer(Tokenizer tokenizer, boolean skipSpecialTokens, boolean spacesBetweenSpecialTokens,
            int[] promptTokenIds) {
        this.tokenizer = tokenizer;
        this.skipSpecialTokens = skipSpecialTokens;
        this.rawConsecutiveSpecials = !skipSpecialTokens && !spacesBetweenSpecialTokens;
        Arrays.stream(promptTokenIds, Math.max(0, promptTokenIds.length - PROMPT_CONTEXT), promptTokenIds.length)
                .forEach(ids::add);
        this.readOffset = ids.size();
    }

    /** Adds a token; returns the text it completes, possibly empty. */
    String append(int tokenId) {
        String text = decodeNext(tokenId);
        if (rawConsecutiveSpecials) {
            boolean special = tokenizer.isSpecial(tokenId);
            if (special && lastSpecial) {
                text = new String(tokenizer.tokenBytes(tokenId), StandardCharsets.UTF_8);
            }
            lastSpecial = special;
        }
        return text;
    }

    private String decodeNext(int tokenId) {
        ids.add(tokenId);
        String prefix = decode(prefixOffset, readOffset);
        String full = decode(prefixOffset, ids.size());
        if (full.length() > prefix.length() && full.charAt(full.length() - 1) != REPLACEMENT) {
            prefixOffset = readOffset;
            readOffset = ids.size();
            return full.substring(prefix.length());
        }
        return "";
    }

    private String decode(int from, int to) {
        if (from == to) {
            return "";
        }
        return tokenizer.decode(ids.subList(from, to).stream().mapToInt(Integer::intValue).toArray(),
                skipSpecialTokens);
    }
}
