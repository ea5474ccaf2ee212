package dev.crucible.domain.feedback;

import java.util.Objects;

/** A ref of kind {@code call}: {@code <scheme>:///<entity>/<project>/call/<call_id>}; later segments are ignored. */
public record CallRef(String scheme, ProjectId project, String callId) implements TraceRef {

    public CallRef {
        Objects.requireNonNull(scheme, "scheme");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(callId, "callId");
    }
}
