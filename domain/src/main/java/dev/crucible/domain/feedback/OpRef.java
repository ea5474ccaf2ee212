package dev.crucible.domain.feedback;

import java.util.List;
import java.util.Objects;

/** A ref of kind {@code op}: {@code <scheme>:///<entity>/<project>/op/<name>:<version>[/<edge>/<value>]*}. */
public record OpRef(String scheme, ProjectId project, String name, String version, List<RefEdge> edges)
        implements NamedRef {

    public OpRef {
        Objects.requireNonNull(scheme, "scheme");
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(version, "version");
        edges = List.copyOf(edges);
    }
}
