package dev.crucible.hf.tokenizer;

import java.util.Objects;

/** One BPE merge rule: the adjacent pieces {@code left} and {@code right} become {@code left + right}. */
public record Merge(String left, String right) {

    /** Rejects nulls. */
    public Merge {
        Objects.requireNonNull(left, "left");
        Objects.requireNonNull(right, "right");
    }

    /** The merged piece. */
    public String merged() {
        return left + right;
    }
}
