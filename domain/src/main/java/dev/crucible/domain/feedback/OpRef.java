package dev.crucible.domain.feedback;

import dev.crucible.kernel.invariant.NonNull;
import java.util.List;

/** A ref of kind {@code op}: {@code <scheme>:///<entity>/<project>/op/<name>:<version>[/<edge>/<value>]*}. */
public record OpRef(String scheme, ProjectId project, String name, String version, List<RefEdge> edges)
        implements NamedRef {

    public OpRef {
        NonNull.components(OpRef.class, scheme, project, name, version);
        edges = List.copyOf(edges);
    }
}
