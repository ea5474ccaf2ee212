package dev.crucible.application.blob;

/** The contract against the application tests' in-memory fake, so that the fake behaves as the real stores do. */
class MemoryBlobStoreTest extends BlobStoreContract {

    @Override
    protected BlobStore store() {
        return new MemoryBlobStore();
    }
}
