package dev.crucible.adapters.s3;

import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * An upload to one key that holds at most one part in memory: bytes fill a part buffer, each full buffer is sent as
 * a part of a multipart upload (started with the first), and nothing is visible under the key until
 * {@link #complete()}. Bytes that never fill one part are not uploaded here: {@link #single()} says so and
 * {@link #body()} gives them to send whole. Not thread-safe.
 */
final class PartUpload extends OutputStream {

    private final S3Client s3;
    private final String bucket;
    private final String key;
    private final byte[] part;
    private final List<CompletedPart> parts = new ArrayList<>();
    private int filled;
    private String uploadId;

    PartUpload(S3Client s3, String bucket, String key, int partBytes) {
        this.s3 = s3;
        this.bucket = bucket;
        this.key = key;
        this.part = new byte[partBytes];
    }

    @Override
    public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        while (len > 0) {
            if (filled == part.length) {
                sendPart();
            }
            int n = Math.min(len, part.length - filled);
            System.arraycopy(b, off, part, filled, n);
            filled += n;
            off += n;
            len -= n;
        }
    }

    /** Whether all the bytes fit one part, so that nothing was sent (and {@link #body()} holds them). */
    boolean single() {
        return uploadId == null;
    }

    /** The bytes not yet sent, as a request body. */
    RequestBody body() {
        return RequestBody.fromInputStream(new ByteArrayInputStream(part, 0, filled), filled);
    }

    /** Sends the last part and makes the object visible under the key. */
    void complete() {
        if (filled > 0) {
            sendPart();
        }
        s3.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId)
                .multipartUpload(CompletedMultipartUpload.builder().parts(parts).build()));
        uploadId = null;
    }

    /** Drops what was sent; the key stays as it was. Never throws: it runs on the way out of a failure. */
    void abort() {
        if (uploadId == null) {
            return;
        }
        try {
            s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
        } catch (RuntimeException e) {
            // the store's removeAbandoned aborts it later
        }
        uploadId = null;
    }

    private void sendPart() {
        if (uploadId == null) {
            uploadId = s3.createMultipartUpload(b -> b.bucket(bucket).key(key)).uploadId();
        }
        int number = parts.size() + 1;
        String etag = s3.uploadPart(b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(number), body())
                .eTag();
        parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
        filled = 0;
    }
}
