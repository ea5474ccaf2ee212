package dev.crucible.adapters.s3;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Properties;
import java.util.stream.Stream;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real S3-compatible server for a test class ({@code @RegisterExtension static}): S3Proxy over jclouds' filesystem
 * backend in a temporary folder, on 127.0.0.1 and a free port, with one bucket and one access key, started before
 * the class's tests and stopped (its folder deleted) after them. Its credentials reach the SDK through the default
 * chain's system-property step.
 */
public final class S3ProxyServer implements BeforeAllCallback, AfterAllCallback {

    public static final String ACCESS_KEY = "crucible-test";
    public static final String SECRET_KEY = "crucible-test-secret";

    private final String bucket;
    private Path folder;
    private BlobStoreContext context;
    private S3Proxy proxy;

    /** A server that will hold {@code bucket}. */
    public S3ProxyServer(String bucket) {
        this.bucket = bucket;
    }

    @Override
    public void beforeAll(ExtensionContext extension) throws Exception {
        folder = Files.createTempDirectory("s3proxy-");
        Properties properties = new Properties();
        properties.setProperty("jclouds.filesystem.basedir", folder.toString());
        context = ContextBuilder.newBuilder("filesystem").overrides(properties).build(BlobStoreContext.class);
        context.getBlobStore().createContainerInLocation(null, bucket);
        proxy = S3Proxy.builder().blobStore(context.getBlobStore())
                .endpoint(URI.create("http://127.0.0.1:0"))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                .build();
        proxy.start();
        while (!"STARTED".equals(proxy.getState())) {
            Thread.sleep(1);
        }
        System.setProperty("aws.accessKeyId", ACCESS_KEY);
        System.setProperty("aws.secretAccessKey", SECRET_KEY);
    }

    /** The server's address. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + proxy.getPort());
    }

    /** The bucket it holds. */
    public String bucket() {
        return bucket;
    }

    @Override
    public void afterAll(ExtensionContext extension) throws Exception {
        proxy.stop();
        context.close();
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
