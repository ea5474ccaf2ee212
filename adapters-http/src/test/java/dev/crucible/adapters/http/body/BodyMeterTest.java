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

    private EmbeddedChannel connection() {
        return new EmbeddedChannel(new BodyMeter(limits, budget, new Refusals(JSON), nanos::get));
    }

    private static HttpRequest request(String path, String key, long declared) {
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, path);
        request.headers().set(HttpHeaderNames.AUTHORIZATION, "Bearer " + key).set(HttpHeaderNames.CONTENT_LENGTH, declared);
        return request;
    }

    private static HttpContent bytes(int count) {
        return new DefaultHttpContent(Unpooled.wrappedBuffer(new byte[count]));
    }

    private static void respond(EmbeddedChannel channel) {
        channel.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
        channel.releaseOutbound();
    }

    private static FullHttpResponse answer(EmbeddedChannel channel) {
        return assertInstanceOf(FullHttpResponse.class, channel.readOutbound());
    }

    @Test
    void aBodyDeclaredLargeHoldsOnlyTheBytesThatArrivedUntilItsResponseEnds() {
        EmbeddedChannel channel = connection();
        channel.writeInbound(request("/v1/files", "k1", 1000), bytes(10));
        assertEquals(10, budget.inFlight());
        channel.writeInbound(bytes(990), LastHttpContent.EMPTY_LAST_CONTENT);
        assertEquals(1000, budget.inFlight(), "a received body is held while its request is handled");

        respond(channel);

        assertEquals(0, budget.inFlight());
        assertEquals(0, budget.uploads(PresentedKey.bucket("Bearer k1", "/v1/files")));
        channel.finishAndReleaseAll();
    }

    @Test
    void aBodyThatStallsPastTheReadTimeoutIsAnswered408AndItsConnectionClosed() {
        EmbeddedChannel channel = connection();
        channel.writeInbound(request("/v1/files", "k1", 1000), bytes(10));
        channel.releaseInbound();
        nanos.addAndGet(Duration.ofSeconds(4).toNanos());
        channel.advanceTimeBy(4, TimeUnit.SECONDS);
        channel.writeInbound(bytes(10));
        channel.runScheduledPendingTasks();
        assertNull(channel.readOutbound(), "a byte arrived 4 s in, so the body is not idle yet");

        nanos.addAndGet(Duration.ofSeconds(6).toNanos());
        channel.advanceTimeBy(6, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();

        FullHttpResponse stalled = answer(channel);
        assertEquals(408, stalled.status().code());
        assertTrue(stalled.content().toString(StandardCharsets.UTF_8).contains("crucible.body.read-timeout"));
        stalled.release();
        assertFalse(channel.isOpen());
        assertEquals(0, budget.inFlight());
        assertEquals(0, budget.uploads(PresentedKey.bucket("Bearer k1", "/v1/files")));
    }

    @Test
    void aChunkThatOtherBodiesLeaveNoRoomForIsA503AndTheRestIsDropped() {
        EmbeddedChannel first = connection();
        first.writeInbound(request("/v1/preview/training-jobs", "k1", 1000), bytes(900));
        EmbeddedChannel second = connection();
        second.writeInbound(request("/v1/preview/training-jobs", "k2", 1000), bytes(500));
        assertEquals(1400, budget.inFlight());
        second.releaseInbound();

        second.writeInbound(bytes(200));

        FullHttpResponse busy = answer(second);
        assertEquals(503, busy.status().code());
        assertEquals(BodyMeter.RETRY_AFTER_SECONDS, busy.headers().get(HttpHeaderNames.RETRY_AFTER));
        busy.release();
        assertNull(second.readInbound(), "the refused chunk is not handed on");
        assertEquals(900, budget.inFlight(), "the refused body gave back what it held");
        second.writeInbound(bytes(100), new DefaultLastHttpContent());
        assertNull(second.readInbound(), "the rest of a refused body is dropped");
        assertFalse(second.isOpen(), "closed once the refused body has been read");
        first.finishAndReleaseAll();
    }

    @Test
    void aKeyPastItsBytesIs429WhileAnotherKeysBodyIsRead() {
        EmbeddedChannel held = connection();
        held.writeInbound(request("/v1/preview/training-jobs", "k1", 1000), bytes(800));
        held.releaseInbound();

        EmbeddedChannel sameKey = connection();
        sameKey.writeInbound(request("/v1/chat/completions", "k1", 300), bytes(100));
        sameKey.releaseInbound();
        sameKey.writeInbound(bytes(200));
        FullHttpResponse refused = answer(sameKey);
        assertEquals(429, refused.status().code());
        assertTrue(refused.content().toString(StandardCharsets.UTF_8)
                .contains("crucible.body.max-in-flight-bytes-per-key"));
        refused.release();

        EmbeddedChannel otherKey = connection();
        otherKey.writeInbound(request("/v1/chat/completions", "k2", 300), bytes(300));
        assertNull(otherKey.readOutbound(), "another key is not refused");
        assertEquals(1100, budget.inFlight());
        held.finishAndReleaseAll();
        otherKey.finishAndReleaseAll();
    }

    @Test
    void aKeysUploadPastItsMostIsA429AtItsHeaders() {
        EmbeddedChannel first = connection();
        first.writeInbound(request("/v1/files", "k1", 100));
        EmbeddedChannel second = connection();
        second.writeInbound(request("/v1/files", "k1", 100));
        EmbeddedChannel third = connection();
        third.writeInbound(request("/v1/files", "k1", 100));

        FullHttpResponse refused = answer(third);
        assertEquals(429, refused.status().code());
        assertTrue(refused.content().toString(StandardCharsets.UTF_8).contains("crucible.body.max-uploads-per-key"));
        refused.release();
        assertNull(third.readInbound(), "the refused request is not handed on");
        EmbeddedChannel otherKey = connection();
        otherKey.writeInbound(request("/v1/files", "k2", 100));
        assertNull(otherKey.readOutbound());

        first.close();
        EmbeddedChannel again = connection();
        again.writeInbound(request("/v1/files", "k1", 100));
        assertNull(again.readOutbound(), "a closed connection gave its upload back");
        for (EmbeddedChannel channel : new EmbeddedChannel[] {first, second, third, otherKey, again}) {
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void anInformationalResponseDoesNotEndTheRequest() {
        EmbeddedChannel channel = connection();
        channel.writeInbound(request("/v1/files", "k1", 100), bytes(50));
        channel.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
        channel.releaseOutbound();
        assertEquals(50, budget.inFlight());
        respond(channel);
        assertEquals(0, budget.inFlight());
        channel.finishAndReleaseAll();
    }
}
