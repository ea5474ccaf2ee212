package dev.crucible.runtime.generation;

import static dev.crucible.runtime.generation.FakeTokenizer.VOCAB;
import static dev.crucible.runtime.generation.Generations.params;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.refusal;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.runtime.generation.stopping.FinishReason;
import dev.crucible.testsupport.concurrent.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The waiting queue: its bound, the owners' turns, cancellation while waiting, and the snapshot of it all. */
class GeneratorAdmissionTest {

    private final CountDownLatch gate = new CountDownLatch(1);
    private final CountDownLatch entered = new CountDownLatch(1);

    /** Prefers token 1 ("a"), never EOS; the first forward waits for the gate, so submissions pile up behind it. */
    private FakeModelRunner gated() {
        return FakeModelRunner.gated(VOCAB, entered, gate, context -> {
            float[] logits = new float[VOCAB];
            logits[1] = 1;
            return logits;
        });
    }

    private static Generator generator(FakeModelRunner runner, int maxBatchSequences, int maxWaiting) {
        return Generator.start(runner, new FakeTokenizer(), Generations.EOS,
                new GeneratorOptions(64, 64, maxBatchSequences, maxWaiting));
    }

    private static GenerationRequest request(String entity, String key) {
        return new GenerationRequest(new int[] {1}, params(b -> b.maxTokens(2)), 0, null, java.util.Optional.empty(),
                new RequestOwner(entity, key));
    }

    @Test
    void aFullQueueRefusesAsOverloadedWithARetryHintAndLosesNothingAdmitted() throws InterruptedException {
        try (Generator generator = generator(gated(), 1, 2)) {
            List<GenerationHandle> admitted = new ArrayList<>();
            admitted.add(value(generator.submit(request("a", "1"), GenerationListener.NONE)));
            assertTrue(entered.await(5, TimeUnit.SECONDS));
            admitted.add(value(generator.submit(request("a", "1"), GenerationListener.NONE)));
            admitted.add(value(generator.submit(request("b", "2"), GenerationListener.NONE)));

            Refusal refused = refusal(generator.submit(request("c", "3"), GenerationListener.NONE));

            assertEquals(Refusal.Reason.OVERLOADED, refused.reason());
            assertTrue(refused.message().contains("2 requests are already waiting"), refused.message());
            assertTrue(refused.retryAfter().orElseThrow().compareTo(Duration.ofSeconds(1)) >= 0);
            GeneratorSnapshot full = generator.snapshot();
            assertEquals(2, full.waiting());
            assertEquals(2, full.maxWaiting());
            assertEquals(1, full.running());
            assertEquals(1, full.refused());
            gate.countDown();
            for (GenerationHandle handle : admitted) {
                assertEquals(2, handle.result().join().completionTokens());
            }
            assertTrue(Await.until(() -> generator.snapshot().running() == 0));
            GeneratorSnapshot after = generator.snapshot();
            assertEquals(0, after.waiting());
            assertEquals(3, after.admitted());
            assertEquals(6, after.generatedTokens());
        }
    }

    @Test
    void ownersTakeTurnsSoAFloodDoesNotStarveAnotherKey() throws InterruptedException {
        List<GenerationRequest> requests = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            requests.add(request("tenant-a", "key-a"));
        }
        requests.add(request("tenant-b", "key-b"));
        // a1 was running; a2 was next in turn when b arrived; then b, before the rest of the flood
        assertEquals(List.of(0, 1, 5, 2, 3, 4), runOrder(requests));
    }

    @Test
    void entitiesTakeTurnsBeforeTheirKeysSoManyKeysDoNotBuyMoreTurns() throws InterruptedException {
        assertEquals(List.of(0, 1, 4, 2, 3), runOrder(List.of(request("busy", "k0"), request("busy", "k1"),
                request("busy", "k2"), request("busy", "k3"), request("quiet", "q"))));
    }

    @Test
    void priorityStillComesBeforeTurns() throws InterruptedException {
        GenerationRequest highest = new GenerationRequest(new int[] {1}, params(b -> b.maxTokens(2)), -1, null,
                java.util.Optional.empty(), new RequestOwner("a", "a"));
        assertEquals(List.of(0, 2, 1), runOrder(List.of(request("a", "a"), request("b", "b"), highest)));
    }

    /**
     * The order {@code requests} ran in, as their indexes: the first runs alone (a batch holds one sequence) and
     * stays in the model until the rest, submitted in order meanwhile, are all waiting.
     */
    private List<Integer> runOrder(List<GenerationRequest> requests) throws InterruptedException {
        List<Recorder> order = new CopyOnWriteArrayList<>();
        List<Recorder> submitted = new ArrayList<>();
        try (Generator generator = generator(gated(), 1, 16)) {
            for (GenerationRequest request : requests) {
                submitted.add(submit(generator, request, order));
                if (submitted.size() == 1) {
                    assertTrue(entered.await(5, TimeUnit.SECONDS));
                }
            }
            gate.countDown();
            assertTrue(Await.until(() -> order.size() == requests.size()), "every request ended: " + order.size());
        }
        return order.stream().map(submitted::indexOf).toList();
    }

    @Test
    void aRequestCancelledWhileWaitingLeavesTheQueueAtOnceAndNeverRuns() throws InterruptedException {
        FakeModelRunner runner = gated();
        try (Generator generator = generator(runner, 1, 1)) {
            GenerationHandle running = value(generator.submit(request("a", "1"), GenerationListener.NONE));
            assertTrue(entered.await(5, TimeUnit.SECONDS));
            Recorder recorder = new Recorder();
            GenerationHandle waiting = value(generator.submit(request("a", "1"), recorder));

            waiting.cancel();

            assertEquals(0, generator.snapshot().waiting(), "its place is free while the model is still busy");
            GenerationHandle next = value(generator.submit(request("b", "2"), GenerationListener.NONE));
            gate.countDown();
            GenerationResult aborted = waiting.result().join();
            recorder.assertDeltasMatch(aborted);
            assertEquals(FinishReason.ABORT, aborted.sequences().getFirst().finish().reason());
            assertEquals(0, aborted.completionTokens());
            assertEquals(2, running.result().join().completionTokens());
            assertEquals(2, next.result().join().completionTokens());
            assertEquals(1, generator.snapshot().cancelledWaiting());
            assertEquals(2, generator.snapshot().admitted());
        }
    }

    @Test
    void aRunningRequestCancelledStopsGeneratingAndIsCounted() throws InterruptedException {
        try (Generator generator = generator(gated(), 4, 4)) {
            GenerationHandle handle = value(generator.submit(new GenerationRequest(new int[] {1},
                    params(b -> b.maxTokens(50)), 0), GenerationListener.NONE));
            assertTrue(entered.await(5, TimeUnit.SECONDS));
            handle.cancel();
            gate.countDown();
            GenerationResult result = handle.result().join();
            assertEquals(FinishReason.ABORT, result.sequences().getFirst().finish().reason());
            assertTrue(result.completionTokens() < 50, "stopped early: " + result.completionTokens());
            assertTrue(Await.until(() -> generator.snapshot().aborted() == 1));
        }
    }

    /** Submits {@code request} with a new recorder, which notes in {@code order} when it completes. */
    private static Recorder submit(Generator generator, GenerationRequest request, List<Recorder> order) {
        Recorder recorder = new Recorder(order);
        value(generator.submit(request, recorder));
        return recorder;
    }
}
