package dev.crucible.adapters.http.body;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.adapters.http.auth.PresentedKey;
import io.micronaut.json.JsonMapper;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The meter on a real Netty channel (embedded), with the HTTP messages a decoder would hand it. */
class BodyMeterTest {

    private static final JsonMapper JSON = JsonMapper.createDefault();
    private final BodyLimits limits = new BodyLimits(1000, 500, 1500, 1000, 2, Duration.ofSeconds(5));
    private final BodyBudget budget = new BodyBudget(limits);
    private final AtomicLong nanos = new AtomicLong();

    /** A connection through the meter that has been sent {@code inbound}: a request's head, then its chunks. */
    private EmbeddedChannel connection(Object... inbound) {
        EmbeddedChannel channel = new EmbeddedChannel(new BodyMeter(limits, budget, new Refusals(JSON), nanos::get));
        channel.writeInbound(inbound);
        return channel;
    }

    /** Moves the meter's clock and the channel's scheduler on together. */
    private void elapse(EmbeddedChannel channel, int seconds) {
        nanos.addAndGet(Duration.ofSeconds(seconds).toNanos());
        channel.advanceTimeBy(seconds, TimeUnit.SECONDS);
    }

    private static HttpRequest request(String path, String key, long declared) {
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, path);
        request.headers().set(HttpHeaderNames.AUTHORIZATION, "Bearer " + key).set(HttpHeaderNames.CONTENT_LENGTH, declared);
        return request;
    }

    private static HttpContent bytes(int count) {
        return new DefaultHttpContent(Unpooled.wrappedBuffer(new byte[count]));
    }

    private static void respond(EmbeddedChannel channel, HttpResponseStatus status) {
        channel.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status));
        channel.releaseOutbound();
    }

    /** Reads the channel's answer, checks its status and that its message says {@code says}; its headers. */
    private static HttpHeaders assertAnswered(EmbeddedChannel channel, int status, String says) {
        FullHttpResponse answer = assertInstanceOf(FullHttpResponse.class, channel.readOutbound());
        try {
            assertEquals(status, answer.status().code());
            String body = answer.content().toString(StandardCharsets.UTF_8);
            assertTrue(body.contains(says), body);
            return answer.headers();
        } finally {
            answer.release();
        }
    }

    @Test
    void aBodyDeclaredLargeHoldsOnlyTheBytesThatArrivedUntilItsResponseEnds() {
        EmbeddedChannel channel = connection(request("/v1/files", "k1", 1000), bytes(10));
        assertEquals(10, budget.inFlight());
        channel.writeInbound(bytes(990), LastHttpContent.EMPTY_LAST_CONTENT);
        assertEquals(1000, budget.inFlight(), "a received body is held while its request is handled");

        respond(channel, HttpResponseStatus.OK);

        assertEquals(0, budget.inFlight());
        assertEquals(0, budget.uploads(PresentedKey.bucket("Bearer k1", "/v1/files")));
        channel.finishAndReleaseAll();
    }

    @Test
    void aBodyThatStallsPastTheReadTimeoutIsAnswered408AndItsConnectionClosed() {
        EmbeddedChannel channel = connection(request("/v1/files", "k1", 1000), bytes(10));
        channel.releaseInbound();
        elapse(channel, 4);
        channel.writeInbound(bytes(10));
        channel.runScheduledPendingTasks();
        assertNull(channel.readOutbound(), "a byte arrived 4 s in, so the body is not idle yet");

        elapse(channel, 6);
        channel.runScheduledPendingTasks();

        assertAnswered(channel, 408, "crucible.body.read-timeout");
        assertFalse(channel.isOpen());
        assertEquals(0, budget.inFlight());
        assertEquals(0, budget.uploads(PresentedKey.bucket("Bearer k1", "/v1/files")));
    }

    @Test
    void aChunkThatOtherBodiesLeaveNoRoomForIsA503AndTheRestIsDropped() {
        EmbeddedChannel first = connection(request("/v1/preview/training-jobs", "k1", 1000), bytes(900));
        EmbeddedChannel second = connection(request("/v1/preview/training-jobs", "k2", 1000), bytes(500));
        assertEquals(1400, budget.inFlight());
        second.releaseInbound();

        second.writeInbound(bytes(200));

        HttpHeaders busy = assertAnswered(second, 503, "too many large request bodies");
        assertEquals(BodyMeter.RETRY_AFTER_SECONDS, busy.get(HttpHeaderNames.RETRY_AFTER));
        assertNull(second.readInbound(), "the refused chunk is not handed on");
        assertEquals(900, budget.inFlight(), "the refused body gave back what it held");
        second.writeInbound(bytes(100), new DefaultLastHttpContent());
        assertNull(second.readInbound(), "the rest of a refused body is dropped");
        assertFalse(second.isOpen(), "closed once the refused body has been read");
        first.finishAndReleaseAll();
    }

    @Test
    void aKeyPastItsBytesIs429WhileAnotherKeysBodyIsRead() {
        EmbeddedChannel held = connection(request("/v1/preview/training-jobs", "k1", 1000), bytes(800));
        held.releaseInbound();

        EmbeddedChannel sameKey = connection(request("/v1/chat/completions", "k1", 300), bytes(100));
        sameKey.releaseInbound();
        sameKey.writeInbound(bytes(200));
        assertAnswered(sameKey, 429, "crucible.body.max-in-flight-bytes-per-key");

        EmbeddedChannel otherKey = connection(request("/v1/chat/completions", "k2", 300), bytes(300));
        assertNull(otherKey.readOutbound(), "another key is not refused");
        assertEquals(1100, budget.inFlight());
        held.finishAndReleaseAll();
        otherKey.finishAndReleaseAll();
    }

    @Test
    void aKeysUploadPastItsMostIsA429AtItsHeaders() {
        EmbeddedChannel first = connection(request("/v1/files", "k1", 100));
        EmbeddedChannel second = connection(request("/v1/files", "k1", 100));
        EmbeddedChannel third = connection(request("/v1/files", "k1", 100));

        assertAnswered(third, 429, "crucible.body.max-uploads-per-key");
        assertNull(third.readInbound(), "the refused request is not handed on");
        EmbeddedChannel otherKey = connection(request("/v1/files", "k2", 100));
        assertNull(otherKey.readOutbound());

        first.close();
        EmbeddedChannel again = connection(request("/v1/files", "k1", 100));
        assertNull(again.readOutbound(), "a closed connection gave its upload back");
        for (EmbeddedChannel channel : new EmbeddedChannel[] {first, second, third, otherKey, again}) {
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void anInformationalResponseDoesNotEndTheRequest() {
        EmbeddedChannel channel = connection(request("/v1/files", "k1", 100), bytes(50));
        respond(channel, HttpResponseStatus.CONTINUE);
        assertEquals(50, budget.inFlight());
        respond(channel, HttpResponseStatus.OK);
        assertEquals(0, budget.inFlight());
        channel.finishAndReleaseAll();
    }
}
