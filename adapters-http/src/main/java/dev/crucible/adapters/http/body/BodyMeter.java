package dev.crucible.adapters.http.body;

import dev.crucible.adapters.http.auth.PresentedKey;
import dev.crucible.kernel.refusal.Excerpt;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts one HTTP/1 connection's request bodies by the bytes that arrive, right behind the HTTP decoder. A body's
 * bytes are reserved in the {@link BodyBudget} as each chunk arrives (its declared length reserves nothing) and given
 * back when its response ends or the connection closes. Refused, with the connection closed after the answer:
 * <ul>
 *   <li>at the headers, an upload past the key's concurrent uploads (429), or a body while the bytes others have
 *       received leave no room (503 for the server's bound, 429 for the key's);</li>
 *   <li>mid-body, a chunk that others' bytes leave no room for (the same statuses);</li>
 *   <li>a body that goes {@code crucible.body.read-timeout} without a byte (408).</li>
 * </ul>
 * A refused request's remaining body is read and dropped, never handed on; the request itself, when already handed on,
 * is ended by the connection's close, and whatever is written for it afterwards is dropped.
 *
 * <p>One instance per connection; every method runs on the connection's event loop.
 */
final class BodyMeter extends ChannelDuplexHandler {

    private static final Logger LOG = LoggerFactory.getLogger(BodyMeter.class);
    static final String RETRY_AFTER_SECONDS = "2";

    /** A request whose body this connection is receiving or whose response it has not finished. */
    private static final class Reading {
        final String bucket;
        final String path;
        final boolean upload;
        long held;
        boolean done;

        Reading(String bucket, String path, boolean upload) {
            this.bucket = bucket;
            this.path = path;
            this.upload = upload;
        }
    }

    private final BodyLimits limits;
    private final BodyBudget budget;
    private final Refusals refusals;
    private final LongSupplier nanoTime;
    private final Deque<Reading> unanswered = new ArrayDeque<>();
    private Reading receiving;
    private boolean discarding;
    private boolean closing;
    private long lastByteAt;
    private ScheduledFuture<?> idleCheck;

    BodyMeter(BodyLimits limits, BodyBudget budget, Refusals refusals, LongSupplier nanoTime) {
        this.limits = limits;
        this.budget = budget;
        this.refusals = refusals;
        this.nanoTime = nanoTime;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (closing && !discarding) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof HttpRequest request && !admit(ctx, request)) {
            drop(ctx, msg);
            return;
        }
        if (discarding) {
            drop(ctx, msg);
            return;
        }
        if (msg instanceof HttpContent content && receiving != null && !count(ctx, content)) {
            drop(ctx, msg);
            return;
        }
        ctx.fireChannelRead(msg);
    }

    /** Starts reading {@code request}'s body; false when it is refused at its headers (then already answered). */
    private boolean admit(ChannelHandlerContext ctx, HttpRequest request) {
        String path = new QueryStringDecoder(request.uri()).path();
        String bucket = PresentedKey.bucket(request.headers().get("Authorization"),
                request.headers().get(PresentedKey.API_KEY_HEADER), path);
        boolean upload = HttpMethod.POST.equals(request.method()) && BodyLimits.isUpload(path);
        Reading reading = new Reading(bucket, path, upload);
        long declared = HttpUtil.getContentLength(request, -1L);
        receiving = reading;
        lastByteAt = nanoTime.getAsLong();
        if (declared > 0 || HttpUtil.isTransferEncodingChunked(request)) {
            scheduleIdleCheck(ctx);
        }
        if (upload && !budget.tryOpenUpload(bucket)) {
            refuse(ctx, reading, 429, "this API key is already sending " + limits.maxUploadsPerKey()
                    + " uploads; send one when another is done (setting crucible.body.max-uploads-per-key)");
            return false;
        }
        if (declared > 0 && declared <= limits.limitFor(path)) {
            // Only a budget already spent by bytes received is refused here: the declared length reserves nothing.
            BodyBudget.Admission admission = budget.wouldAdmit(bucket, 1);
            if (admission != BodyBudget.Admission.ADMITTED) {
                refuseFull(ctx, reading, admission);
                return false;
            }
        }
        unanswered.add(reading);
        return true;
    }

    /** Reserves {@code content}'s bytes for the body being received; false when refused (then already answered). */
    private boolean count(ChannelHandlerContext ctx, HttpContent content) {
        Reading reading = receiving;
        lastByteAt = nanoTime.getAsLong();
        int bytes = content.content().readableBytes();
        if (bytes > 0 && !reading.done) {
            BodyBudget.Admission admission = budget.tryReserve(reading.bucket, bytes, reading.held);
            if (admission != BodyBudget.Admission.ADMITTED) {
                refuseFull(ctx, reading, admission);
                return false;
            }
            reading.held += bytes;
        }
        if (content instanceof LastHttpContent) {
            endOfBody();
        }
        return true;
    }

    private void drop(ChannelHandlerContext ctx, Object msg) {
        boolean last = msg instanceof LastHttpContent;
        ReferenceCountUtil.release(msg);
        if (last && discarding) {
            endOfBody();
            ctx.close();
        }
    }

    private void endOfBody() {
        receiving = null;
        cancelIdleCheck();
    }

    private void refuseFull(ChannelHandlerContext ctx, Reading reading, BodyBudget.Admission admission) {
        if (admission == BodyBudget.Admission.KEY_FULL) {
            refuse(ctx, reading, 429, "this API key's requests are already sending "
                    + limits.maxInFlightBytesPerKey() + " body bytes, its most; retry later "
                    + "(setting crucible.body.max-in-flight-bytes-per-key)");
        } else {
            refuse(ctx, reading, 503, "the server is reading too many large request bodies at once; retry later");
        }
    }

    /**
     * Answers {@code reading} with {@code status} unless it was answered already, gives back what it held, and closes
     * the connection once the rest of the body has been read and dropped (or at once, for a stalled body).
     */
    private void refuse(ChannelHandlerContext ctx, Reading reading, int status, String message) {
        LOG.info("{} {} answered {}: {} ({} body bytes in flight)", ctx.channel().remoteAddress(),
                Excerpt.of(reading.path), status, message, budget.inFlight());
        boolean answered = !unanswered.contains(reading) && !reading.equals(receiving) || reading.done;
        boolean ahead = !unanswered.isEmpty() && unanswered.peekFirst() != reading;
        finish(reading);
        unanswered.remove(reading);
        closing = true;
        discarding = receiving == reading && status != 408;
        if (answered || ahead) {
            // Already answered, or a pipelined request before it is still unanswered: closing is the only answer.
            ctx.close();
            return;
        }
        var written = ctx.writeAndFlush(refusals.response(status, message, status != 408 && status != 413));
        if (!discarding) {
            written.addListener(ChannelFutureListener.CLOSE);
        }
    }

    private void finish(Reading reading) {
        if (reading.done) {
            return;
        }
        reading.done = true;
        budget.release(reading.bucket, reading.held);
        reading.held = 0;
        if (reading.upload) {
            budget.closeUpload(reading.bucket);
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (closing) {
            ReferenceCountUtil.release(msg);
            promise.tryFailure(new ClosedChannelException());
            return;
        }
        boolean informational = msg instanceof HttpResponse response
                && response.status().codeClass() == HttpStatusClass.INFORMATIONAL;
        if (msg instanceof LastHttpContent && !informational) {
            Reading answered = unanswered.poll();
            if (answered != null) {
                finish(answered);
            }
        }
        ctx.write(msg, promise);
    }

    private void scheduleIdleCheck(ChannelHandlerContext ctx) {
        cancelIdleCheck();
        long timeout = limits.readTimeout().toNanos();
        idleCheck = ctx.executor().schedule(() -> checkIdle(ctx), timeout, TimeUnit.NANOSECONDS);
    }

    private void checkIdle(ChannelHandlerContext ctx) {
        idleCheck = null;
        Reading reading = receiving;
        if (reading == null || !ctx.channel().isActive()) {
            return;
        }
        long idle = nanoTime.getAsLong() - lastByteAt;
        long timeout = limits.readTimeout().toNanos();
        if (idle < timeout) {
            idleCheck = ctx.executor().schedule(() -> checkIdle(ctx), timeout - idle, TimeUnit.NANOSECONDS);
            return;
        }
        receiving = null;
        refuse(ctx, reading, 408, "the request body stalled: no byte arrived for " + limits.readTimeout().toMillis()
                + " ms (setting crucible.body.read-timeout)");
    }

    private void cancelIdleCheck() {
        if (idleCheck != null) {
            idleCheck.cancel(false);
            idleCheck = null;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancelIdleCheck();
        if (receiving != null) {
            finish(receiving);
            receiving = null;
        }
        for (Reading reading : unanswered) {
            finish(reading);
        }
        unanswered.clear();
        super.channelInactive(ctx);
    }
}
