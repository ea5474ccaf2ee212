package dev.crucible.hf.tokenizer;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a tokenizer.json adds around its BPE model: the style, the added tokens (given ids after the vocabulary, in
 * this order) and, for Llama 3, the token its post-processor prepends when special tokens are requested.
 */
public record TokenizerSpec(TokenizerStyle style, List<AddedToken> addedTokens, Optional<String> prependedToken) {

    /** Rejects duplicates and a prepended token that is not among the added tokens. */
    public TokenizerSpec {
        Objects.requireNonNull(style, "style");
        addedTokens = List.copyOf(addedTokens);
        Objects.requireNonNull(prependedToken, "prependedToken");
        var seen = new HashSet<String>();
        for (AddedToken t : addedTokens) {
            if (!seen.add(t.content())) {
                throw new IllegalArgumentException("duplicate added token " + t.content());
            }
        }
        if (prependedToken.isPresent() && !seen.contains(prependedToken.get())) {
            throw new IllegalArgumentException("prepended token " + prependedToken.get() + " is not an added token");
        }
    }
}
