package dev.crucible.domain.feedback;

/**
 * A parsed ref to something traced, from the grammar {@code <scheme>:///<entity>/<project>/<kind>/<rest>}
 * (see {@link TraceRefParser}). Any scheme is accepted; the kinds are {@code object}, {@code op}, {@code call} and
 * {@code table}.
 */
public sealed interface TraceRef permits NamedRef, CallRef, TableRef {

    /** The URI scheme as written, for example {@code weave}. */
    String scheme();

    /** The project named by the ref's first two path segments. */
    ProjectId project();
}
