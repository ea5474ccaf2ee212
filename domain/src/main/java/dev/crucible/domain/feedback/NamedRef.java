package dev.crucible.domain.feedback;

import java.util.List;

/**
 * A ref to a versioned, named thing: an {@link ObjectRef} or an {@link OpRef}. Where Weave expects an object ref,
 * an op ref is accepted too (an op is an object there), so checks that want "an object" take a {@code NamedRef}.
 */
public sealed interface NamedRef extends TraceRef permits ObjectRef, OpRef {

    /** The object's name, the part before {@code :}. */
    String name();

    /** The version (usually a digest or an alias such as {@code latest}), the part after {@code :}. */
    String version();

    /** The path into the object, as edge/value pairs; empty for the object itself. */
    List<RefEdge> edges();
}
