package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * One tenant's ambiguous grammar ({@code x ::= x x | "a"}, whose Earley sets grow with every byte) must not slow
 * another tenant's tokens: tenant A hammers the model with it from two threads while tenant B sends short requests
 * one after another, and B's median latency stays within 1.5 times its median with the model otherwise idle. Idle
 * is measured before and after the load and the larger median taken, so a machine that slows down meanwhile does
 * not fail the test; each median is over many requests so a few slow ones do not move it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GrammarIsolationIT {

    private static final int B_REQUESTS = 40;
    private static final String AMBIGUOUS = "root ::= x\nx ::= x x | \"a\"";
    @AutoClose
    private final TestServer server = TestServer.start(Map.of());
    private final Api tenantA = server.api(server.newKey("tenant-a"));
    private final Api tenantB = server.api(server.newKey("tenant-b"));

    private static Map<String, Object> shortChat() {
        return RequestBodies.chat("Say something", "max_tokens", 8, "ignore_eos", true, "seed", 1);
    }

    private static Map<String, Object> ambiguous() {
        return RequestBodies.chat("Say a", "max_tokens", 300, "ignore_eos", true, "structured_outputs",
                Map.of("grammar", AMBIGUOUS));
    }

    private double medianMillisOfB() {
        List<Double> millis = new ArrayList<>();
        for (int i = 0; i < B_REQUESTS; i++) {
            long start = System.nanoTime();
            Api.Reply reply = tenantB.post("/v1/chat/completions", shortChat());
            millis.add((System.nanoTime() - start) / 1e6);
            assertEquals(200, reply.status(), reply.toString());
        }
        millis.sort(Double::compare);
        return millis.get(millis.size() / 2);
    }

    @Test
    void anotherTenantsAmbiguousGrammarLeavesShortRequestsWithin150PercentOfTheirIdleLatency() throws Exception {
        for (int i = 0; i < 5; i++) {
            tenantB.post("/v1/chat/completions", shortChat());
        }
        double idleBefore = medianMillisOfB();
        AtomicBoolean loading = new AtomicBoolean(true);
        AtomicInteger answered = new AtomicInteger();
        ExecutorService hammer = Executors.newFixedThreadPool(2);
        List<Future<?>> threads = new ArrayList<>();
        try {
            for (int t = 0; t < 2; t++) {
                threads.add(hammer.submit(() -> {
                    while (loading.get()) {
                        Api.Reply reply = tenantA.post("/v1/chat/completions", ambiguous());
                        assertTrue(reply.status() == 200 || reply.status() == 400, reply.toString());
                        answered.incrementAndGet();
                    }
                    return null;
                }));
            }
            Thread.sleep(1_000); // A's sequences are deep into their output, where each step costs most
            double loaded = medianMillisOfB();
            loading.set(false);
            for (Future<?> thread : threads) {
                thread.get();
            }
            double idleAfter = medianMillisOfB();
            double idle = Math.max(idleBefore, idleAfter);
            System.out.printf("GrammarIsolationIT: B median idle %.1f ms before, %.1f ms after, %.1f ms under A's "
                    + "load (A answered %d)%n", idleBefore, idleAfter, loaded, answered.get());
            assertTrue(answered.get() > 0, "tenant A was answered");
            assertTrue(loaded <= 1.5 * idle, "B's median under A's load " + loaded + " ms, idle " + idleBefore
                    + " ms before and " + idleAfter + " ms after; A answered " + answered.get());
        } finally {
            loading.set(false);
            hammer.shutdownNow();
        }
    }
}
