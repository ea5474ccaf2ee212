package dev.crucible.adapters.http.body;

import dev.crucible.adapters.http.error.ErrorEnvelope;
import io.micronaut.json.JsonMapper;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The answers {@link BodyMeter} writes itself, below Micronaut's routing: the one error envelope, with
 * {@code Connection: close} (the meter closes the connection after them) and {@code Retry-After} where waiting helps.
 */
@Singleton
record Refusals(JsonMapper json) {

    FullHttpResponse response(int status, String message, boolean retryLater) {
        byte[] body;
        try {
            body = json.writeValueAsBytes(ErrorEnvelope.of(status, message, null));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write an error envelope", e);
        }
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status),
                Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        if (retryLater) {
            response.headers().set(HttpHeaderNames.RETRY_AFTER, BodyMeter.RETRY_AFTER_SECONDS);
        }
        return response;
    }
}
