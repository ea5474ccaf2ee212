package dev.crucible.adapters.http.inference;

import dev.crucible.application.inference.chat.ClientDisconnect;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.server.netty.NettyHttpRequest;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;

/**
 * A request's connection as the use case's {@link ClientDisconnect}. Micronaut cancels a streamed response's
 * publisher when the client goes away, but not a blocking one (micronaut-core#8140), nor a stream it never began to
 * write, so this listens to the Netty channel itself.
 */
final class Disconnects {

    private Disconnects() {
    }

    /** Where {@code request} hears its connection close; {@link ClientDisconnect#NEVER} off Netty. */
    static ClientDisconnect of(HttpRequest<?> request) {
        if (!(request instanceof NettyHttpRequest<?> netty)) {
            return ClientDisconnect.NEVER;
        }
        Channel channel = netty.getChannelHandlerContext().channel();
        return stop -> {
            ChannelFutureListener cancel = closed -> stop.run();
            channel.closeFuture().addListener(cancel);
            return () -> channel.closeFuture().removeListener(cancel);
        };
    }
}
