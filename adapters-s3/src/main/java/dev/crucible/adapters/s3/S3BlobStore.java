package dev.crucible.adapters.s3;

import dev.crucible.application.blob.BlobDigest;
import dev.crucible.application.blob.BlobInfo;
import dev.crucible.application.blob.BlobManifest;
import dev.crucible.application.blob.BlobStore;
import dev.crucible.application.blob.HashingCopy;
import dev.crucible.application.blob.ManifestName;
import dev.crucible.application.blob.StoredBlob;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The blob store in an S3 bucket under a prefix: object {@code d} is {@code <prefix>blobs/sha256/<d>}, manifest
 * {@code n} is {@code <prefix>manifests/<n>}. An object up to one part ({@value #PART_BYTES} bytes) is hashed in memory
 * and put under its digest at once; a larger one is sent part by part (one part in memory) to a multipart upload of a
 * temporary key {@code <prefix>tmp/<uuid>}, invisible until completed, and then copied under its digest on the server
 * (S3's single copy takes objects up to 5 GiB). Either way the object's key is written last and whole, and its
 * LastModified is fresh, as the garbage rule needs. S3 writes are atomic and, since 2020, read-after-write consistent
 * for every reader, which the manifests rely on; S3-compatible servers (Ceph RGW, Garage, SeaweedFS, MinIO) are too.
 *
 * <p>Thread-safe (the SDK's client is). Failures surface as the SDK's unchecked exceptions.
 */
public final class S3BlobStore implements BlobStore {

    /** One part of a multipart upload, and the most of an object held in memory (S3's minimum part is 5 MiB). */
    static final int PART_BYTES = 8 << 20;

    private static final long MAX_COPY_BYTES = 5L << 30;

    private final S3Client s3;
    private final S3Location location;

    /** A store over {@code s3}, which the store then owns. */
    public S3BlobStore(S3Client s3, S3Location location) {
        this.s3 = Objects.requireNonNull(s3, "s3");
        this.location = Objects.requireNonNull(location, "location");
    }

    /**
     * A client for {@code location}, over the JDK's HTTP client, with credentials from the SDK's default chain
     * (environment, system properties, profile files, container and instance roles).
     *
     * @param endpoint the server's address for an S3-compatible server; empty for AWS's own
     * @param region the region (S3-compatible servers mostly accept any, such as {@code us-east-1})
     * @param pathStyle whether buckets are addressed as a path ({@code host/bucket}) rather than a host name
     */
    public static S3BlobStore connect(S3Location location, Optional<URI> endpoint, String region, boolean pathStyle) {
        S3ClientBuilder builder = S3Client.builder()
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .region(Region.of(region))
                .forcePathStyle(pathStyle)
                // checksums only where S3 requires them: several S3-compatible servers refuse the SDK's trailers
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        endpoint.ifPresent(builder::endpointOverride);
        return new S3BlobStore(builder.build(), location);
    }

    /** Checks that the bucket can be reached with the credentials found; the SDK's exception says why not. */
    public void check() {
        s3.headBucket(b -> b.bucket(location.bucket()));
    }

    /** Where this store keeps its objects. */
    public S3Location location() {
        return location;
    }

    @Override
    public Optional<StoredBlob> put(InputStream content, long maxBytes) {
        String temporary = location.prefix() + "tmp/" + UUID.randomUUID();
        PartUpload upload = new PartUpload(s3, location.bucket(), temporary, PART_BYTES);
        Optional<StoredBlob> blob;
        try {
            blob = HashingCopy.copy(content, upload, maxBytes);
        } catch (IOException e) {
            upload.abort();
            throw new UncheckedIOException("cannot read an object's bytes", e);
        } catch (RuntimeException e) {
            upload.abort();
            throw e;
        }
        if (blob.isEmpty()) {
            upload.abort();
            return blob;
        }
        String key = objectKey(blob.get().digest());
        if (upload.single()) {
            s3.putObject(b -> b.bucket(location.bucket()).key(key), upload.body());
            return blob;
        }
        try {
            upload.complete();
            if (blob.get().size() > MAX_COPY_BYTES) {
                throw new IllegalStateException("objects over 5 GiB cannot be stored in S3 here, got "
                        + blob.get().size() + " bytes");
            }
            s3.copyObject(b -> b.sourceBucket(location.bucket()).sourceKey(temporary)
                    .destinationBucket(location.bucket()).destinationKey(key));
        } finally {
            upload.abort();
            s3.deleteObject(b -> b.bucket(location.bucket()).key(temporary));
        }
        return blob;
    }

    @Override
    public Optional<InputStream> open(BlobDigest digest) {
        try {
            return Optional.of(s3.getObject(b -> b.bucket(location.bucket()).key(objectKey(digest))));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    @Override
    public void delete(BlobDigest digest) {
        s3.deleteObject(b -> b.bucket(location.bucket()).key(objectKey(digest)));
    }

    @Override
    public void forEachBlob(Consumer<BlobInfo> action) {
        String prefix = objectKey("");
        for (S3Object object : list(prefix)) {
            String hex = object.key().substring(prefix.length());
            if (BlobDigest.isValid(hex)) {
                action.accept(new BlobInfo(new StoredBlob(new BlobDigest(hex), object.size()), object.lastModified()));
            }
        }
    }

    @Override
    public void removeAbandoned(Instant cutoff) {
        String temporary = location.prefix() + "tmp/";
        for (S3Object object : list(temporary)) {
            if (object.lastModified().isBefore(cutoff)) {
                s3.deleteObject(b -> b.bucket(location.bucket()).key(object.key()));
            }
        }
        for (MultipartUpload upload : s3.listMultipartUploadsPaginator(b -> b.bucket(location.bucket())
                .prefix(temporary)).uploads()) {
            if (upload.initiated().isBefore(cutoff)) {
                s3.abortMultipartUpload(b -> b.bucket(location.bucket()).key(upload.key())
                        .uploadId(upload.uploadId()));
            }
        }
    }

    @Override
    public void putManifest(ManifestName name, BlobManifest manifest) {
        s3.putObject(b -> b.bucket(location.bucket()).key(manifestKey(name.value())),
                RequestBody.fromString(manifest.text(), StandardCharsets.UTF_8));
    }

    @Override
    public Optional<BlobManifest> manifest(ManifestName name) {
        try {
            return Optional.of(BlobManifest.parse(s3.getObjectAsBytes(b -> b.bucket(location.bucket())
                    .key(manifestKey(name.value()))).asUtf8String()));
        } catch (NoSuchKeyException e) {
            return Optional.empty();
        }
    }

    @Override
    public void deleteManifest(ManifestName name) {
        s3.deleteObject(b -> b.bucket(location.bucket()).key(manifestKey(name.value())));
    }

    @Override
    public List<ManifestName> manifests(String prefix) {
        String root = manifestKey("");
        List<ManifestName> names = new ArrayList<>();
        for (S3Object object : list(root + prefix)) {
            String name = object.key().substring(root.length());
            if (ManifestName.isValid(name)) {
                names.add(new ManifestName(name));
            }
        }
        return names;
    }

    private Iterable<S3Object> list(String prefix) {
        return s3.listObjectsV2Paginator(b -> b.bucket(location.bucket()).prefix(prefix)).contents();
    }

    private String objectKey(BlobDigest digest) {
        return objectKey(digest.hex());
    }

    private String objectKey(String hex) {
        return location.prefix() + "blobs/sha256/" + hex;
    }

    private String manifestKey(String name) {
        return location.prefix() + "manifests/" + name;
    }
}
