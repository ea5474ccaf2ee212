package dev.crucible.domain.feedback;

import java.util.Objects;

/** A ref of kind {@code table}: {@code <scheme>:///<entity>/<project>/table/<digest>}; later segments are ignored. */
public record TableRef(String scheme, ProjectId project, String digest) implements TraceRef {

    public TableRef {
        Objects.requireNonNull(scheme, "scheme");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(digest, "digest");
    }
}
