package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.TestServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.slf4j.LoggerFactory;

/** A failure inside a route: one 500 in the envelope with nothing of the exception, logged once with its cause. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServerErrorIT {

    @AutoClose
    private final TestServer server = TestServer.start(Map.of("crucible.test.failing-route", true, "crucible.runner.enabled", false));

    @Test
    void aFailingRouteAnswersOneBare500AndLogsItOnce() {
        Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> seen = new ListAppender<>();
        seen.start();
        root.addAppender(seen);
        Api.Reply reply;
        try {
            reply = server.api(null).get("/test/failing");
        } finally {
            root.detachAppender(seen);
        }
        assertEquals(500, reply.status(), reply.toString());
        assertEquals(Map.of("message", "internal server error", "type", "internal_error", "param", "null", "code", 500)
                .keySet(), reply.error().keySet());
        assertEquals("internal server error", reply.error().get("message"));
        assertFalse(reply.toString().contains("hunter2"), reply.toString());
        assertFalse(reply.toString().contains("IllegalStateException"), reply.toString());
        List<ILoggingEvent> failures = seen.list.stream().filter(e -> e.getThrowableProxy() != null
                && e.getThrowableProxy().getMessage().equals(FailingRoute.SECRET)).toList();
        assertEquals(1, failures.size(), failures.stream().map(e -> e.getLoggerName() + ": "
                + e.getFormattedMessage()).toList().toString());
        assertTrue(failures.getFirst().getFormattedMessage().contains("GET /test/failing"),
                failures.getFirst().getFormattedMessage());
    }
}
