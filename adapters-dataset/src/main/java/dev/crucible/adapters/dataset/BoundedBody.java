package dev.crucible.adapters.dataset;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Collects a response body of at most {@code maxBytes} bytes; past that it cancels the download (which closes the
 * connection) and fails with {@link TooLarge}, so an endless or huge body never fills memory.
 */
final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {

    /** Signals a body over the bound; not a failure of the server. */
    static final class TooLarge extends RuntimeException {
        TooLarge() {
            super("response body over the bound", null, false, false);
        }
    }

    private final long maxBytes;
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private final ByteArrayOutputStream collected = new ByteArrayOutputStream();
    private Flow.Subscription subscription;

    BoundedBody(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        if (result.isDone()) {
            return;
        }
        for (ByteBuffer buffer : buffers) {
            if (collected.size() + (long) buffer.remaining() > maxBytes) {
                subscription.cancel();
                result.completeExceptionally(new TooLarge());
                return;
            }
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            collected.writeBytes(bytes);
        }
    }

    @Override
    public void onError(Throwable error) {
        result.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        result.complete(collected.toByteArray());
    }
}
