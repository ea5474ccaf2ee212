package dev.crucible.adapters.http.body;

import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.micronaut.http.server.netty.NettyServerCustomizer;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import jakarta.inject.Singleton;

/**
 * Puts a {@link BodyMeter} right behind the HTTP/1 decoder of every connection the server accepts, so that body
 * bytes are counted as they arrive, before Micronaut buffers or parses any of them.
 */
@Singleton
record BodyMeterInstaller(BodyLimits limits, BodyBudget budget, Refusals refusals)
        implements BeanCreatedEventListener<NettyServerCustomizer.Registry> {

    private static final String DECODER = "http-server-codec";
    private static final String NAME = "crucible-body-meter";

    @Override
    public NettyServerCustomizer.Registry onCreated(BeanCreatedEvent<NettyServerCustomizer.Registry> event) {
        event.getBean().register(new NettyServerCustomizer() {
            @Override
            public NettyServerCustomizer specializeForChannel(Channel channel, ChannelRole role) {
                return role == ChannelRole.CONNECTION ? new OnConnection(channel) : this;
            }
        });
        return event.getBean();
    }

    private final class OnConnection implements NettyServerCustomizer {
        private final Channel channel;

        OnConnection(Channel channel) {
            this.channel = channel;
        }

        @Override
        public void onStreamPipelineBuilt() {
            ChannelPipeline pipeline = channel.pipeline();
            if (pipeline.get(DECODER) != null && pipeline.get(NAME) == null) {
                pipeline.addAfter(DECODER, NAME, new BodyMeter(limits, budget, refusals, System::nanoTime));
            }
        }
    }
}
