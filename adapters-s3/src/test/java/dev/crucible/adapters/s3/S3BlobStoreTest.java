package dev.crucible.adapters.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.application.blob.BlobStore;
import dev.crucible.application.blob.BlobStoreContract;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The blob store contract against S3Proxy (filesystem backend), a real S3 server on loopback; each test gets a bucket
 * prefix of its own, so each starts with an empty store.
 */
class S3BlobStoreTest extends BlobStoreContract {

    @RegisterExtension
    static final S3ProxyServer SERVER = new S3ProxyServer("crucible-blobs");

    @Override
    protected BlobStore store() {
        S3Location fresh = S3Location.parse("s3://" + SERVER.bucket() + "/test-" + UUID.randomUUID());
        S3BlobStore store = S3BlobStore.connect(fresh, Optional.of(SERVER.endpoint()), "us-east-1", true);
        store.check();
        return store;
    }

    @Test
    void readsTheBlobStoreSetting() {
        assertEquals(new S3Location("bucket", ""), S3Location.parse("s3://bucket"));
        assertEquals(new S3Location("bucket", "a/b/"), S3Location.parse("s3://bucket/a/b"));
        assertEquals(new S3Location("bucket", "a/"), S3Location.parse("s3://bucket/a/"));
        for (String bad : new String[] {"", "local", "s3://", "s3://B", "s3://bucket/../x", "s3://bucket/a b",
                "http://bucket/x"}) {
            assertThrows(IllegalArgumentException.class, () -> S3Location.parse(bad), bad);
        }
    }
}
