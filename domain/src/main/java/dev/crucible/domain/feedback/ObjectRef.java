package dev.crucible.domain.feedback;

import dev.crucible.kernel.invariant.NonNull;
import java.util.List;

/** A ref of kind {@code object}: {@code <scheme>:///<entity>/<project>/object/<name>:<version>[/<edge>/<value>]*}. */
public record ObjectRef(String scheme, ProjectId project, String name, String version, List<RefEdge> edges)
        implements NamedRef {

    public ObjectRef {
        NonNull.components(ObjectRef.class, scheme, project, name, version);
        edges = List.copyOf(edges);
    }
}
