package dev.crucible.application.inference.generation;

import dev.crucible.engine.spi.Tokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Turns one sequence's tokens into text deltas as vLLM's {@code detokenize_incrementally} does: decode a window from
 * the prefix offset with and without the new tokens and emit the difference, unless the decoded window ends in
 * U+FFFD (an incomplete UTF-8 character, held back until later tokens complete it). The last few prompt tokens seed
 * the window, so tokenizers that strip a leading space at the start of a decode still give the right spacing. Not
 * thread-safe.
 */
final class IncrementalDetokenizer {

    /** vLLM's {@code INITIAL_INCREMENTAL_DETOKENIZATION_OFFSET}. */
    private static final int PROMPT_CONTEXT = 5;
    private static final char REPLACEMENT = '\uFFFD';

    private final Tokenizer tokenizer;
    private final boolean skipSpecialTokens;
    private final List<Integer> ids = new ArrayList<>();
    private int prefixOffset;
    private int readOffset;

    IncrementalDetokenizer(Tokenizer tokenizer, boolean skipSpecialTokens, int[] promptTokenIds) {
        this.tokenizer = tokenizer;
        this.skipSpecialTokens = skipSpecialTokens;
        Arrays.stream(promptTokenIds, Math.max(0, promptTokenIds.length - PROMPT_CONTEXT), promptTokenIds.length)
                .forEach(ids::add);
        this.readOffset = ids.size();
    }

    /** Adds a token; returns the text it completes, possibly empty. */
    String append(int tokenId) {
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
