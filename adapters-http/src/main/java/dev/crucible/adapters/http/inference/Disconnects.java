package dev.crucible.adapters.http.inference;

import dev.crucible.runtime.generation.GenerationHandle;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.server.netty.NettyHttpRequest;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;

/**
 * Cancels a generation whose client closed its connection before the answer was written. Micronaut cancels a
 * streamed response's publisher when the client goes away, but not a blocking one (micronaut-core#8140), so this
 * listens to the Netty channel itself.
 */
final class Disconnects {

    private Disconnects() {
    }

    /**
     * Cancels {@code handle} when {@code request}'s connection closes before the generation ends; the listener is
     * removed once it ends, so a kept-alive connection does not collect them.
     */
    static void cancelOnClose(HttpRequest<?> request, GenerationHandle handle) {
        if (!(request instanceof NettyHttpRequest<?> netty)) {
            return;
        }
        Channel channel = netty.getChannelHandlerContext().channel();
        ChannelFutureListener cancel = closed -> handle.cancel();
        channel.closeFuture().addListener(cancel);
        handle.result().whenComplete((result, failure) -> channel.closeFuture().removeListener(cancel));
    }
}
