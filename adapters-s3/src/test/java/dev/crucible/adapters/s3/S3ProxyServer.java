package dev.crucible.adapters.s3;

import java.net.URI;
import java.nio.file.Path;
import java.util.Properties;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * A real S3-compatible server for tests: S3Proxy over jclouds' filesystem backend in a folder, on 127.0.0.1 and a
 * free port, with one access key. Its credentials reach the SDK through the default chain's system properties.
 */
public final class S3ProxyServer implements AutoCloseable {

    public static final String ACCESS_KEY = "crucible-test";
    public static final String SECRET_KEY = "crucible-test-secret";

    private final S3Proxy proxy;
    private final BlobStoreContext context;

    private S3ProxyServer(S3Proxy proxy, BlobStoreContext context) {
        this.proxy = proxy;
        this.context = context;
    }

    /**
     * Starts a server keeping its buckets under {@code folder}, with {@code bucket} created, and makes its credentials
     * the ones the SDK's default chain finds (the system-property step).
     */
    public static S3ProxyServer start(Path folder, String bucket) throws Exception {
        S3ProxyServer server = start(folder);
        server.context.getBlobStore().createContainerInLocation(null, bucket);
        System.setProperty("aws.accessKeyId", ACCESS_KEY);
        System.setProperty("aws.secretAccessKey", SECRET_KEY);
        return server;
    }

    private static S3ProxyServer start(Path folder) throws Exception {
        Properties properties = new Properties();
        properties.setProperty("jclouds.filesystem.basedir", folder.toAbsolutePath().toString());
        BlobStoreContext context = ContextBuilder.newBuilder("filesystem").overrides(properties)
                .build(BlobStoreContext.class);
        S3Proxy proxy = S3Proxy.builder().blobStore(context.getBlobStore())
                .endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                .build();
        proxy.start();
        while (!"STARTED".equals(proxy.getState())) {
            Thread.sleep(1);
        }
        return new S3ProxyServer(proxy, context);
    }

    /** The server's address. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + proxy.getPort());
    }

    @Override
    public void close() throws Exception {
        proxy.stop();
        context.close();
    }
}
