package dev.crucible.domain.object;

import java.util.Objects;

/**
 * Which version of an object a read or ref asks for, written as Weave's {@code digest} field: {@code latest}, an
 * index alias {@code v<N>}, or anything else as a digest (not checked for format; an unknown one finds nothing).
 */
public sealed interface VersionSelector permits VersionSelector.Latest, VersionSelector.Index, VersionSelector.Digest {

    /** The newest live version. */
    record Latest() implements VersionSelector {
    }

    /** The version with this 0-based index. */
    record Index(int value) implements VersionSelector {
        public Index {
            if (value < 0) {
                throw new IllegalArgumentException("version index must be >= 0, got " + value);
            }
        }
    }

    /** The version whose content has this digest. */
    record Digest(String value) implements VersionSelector {
        public Digest {
            Objects.requireNonNull(value, "value");
        }
    }

    /**
     * Reads Weave's version text: {@code latest}, {@code v<N>} (as {@code digest_is_version_like}, but ASCII digits
     * only and at most 9 of them, so that it fits an {@code int}) or, anything else, a digest.
     */
    static VersionSelector parse(String text) {
        Objects.requireNonNull(text, "text");
        if (text.equals("latest")) {
            return new Latest();
        }
        return text.matches("v[0-9]{1,9}") ? new Index(Integer.parseInt(text.substring(1))) : new Digest(text);
    }
}
