package dev.crucible.application.blob;

/**
 * Asks for a {@link BlobCollector#collect() collection} of the objects nothing names any more, after a delete removed
 * manifests. A server runs it later on its own thread ({@link ScheduledBlobSweeps}), so that a delete request never
 * waits for a listing of every object; a test runs it {@link #inline(BlobCollector) at once}.
 */
@FunctionalInterface
public interface BlobSweeps {

    /** Returns at once or after the collection; never throws for a collection that fails. */
    void request();

    /** Collects in the caller's thread, before {@link #request()} returns. */
    static BlobSweeps inline(BlobCollector collector) {
        return collector::collect;
    }
}
