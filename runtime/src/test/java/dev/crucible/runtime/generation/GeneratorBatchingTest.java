package dev.crucible.runtime.generation;

import static dev.crucible.runtime.generation.FakeTokenizer.VOCAB;
import static dev.crucible.runtime.generation.Generations.params;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.spi.EngineException;
import dev.crucible.runtime.generation.stopping.FinishReason;
import dev.crucible.testsupport.concurrent.Await;
import dev.crucible.testsupport.engine.TokenListCache;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class GeneratorBatchingTest {

    private final CountDownLatch gate = new CountDownLatch(1);
    private final CountDownLatch entered = new CountDownLatch(1);

    /** Logit 1 on token 1 ("a"), 0 elsewhere: greedy never ends on EOS. */
    private static float[] prefersA(List<Integer> context) {
        float[] logits = new float[VOCAB];
        logits[1] = 1;
        return logits;
    }

    /** Logits depend on the whole context: token (sum of ids) mod 15 + 1 is likely, the rest less so. */
    private static float[] contextual(List<Integer> context) {
        float[] logits = new float[VOCAB];
        int sum = context.stream().mapToInt(Integer::intValue).sum();
        for (int k = 1; k < VOCAB; k++) {
            logits[k] = (float) Math.cos(sum * 0.7 + k);
        }
        logits[sum % 15 + 1] += 1.5f;
        return logits;
    }

    /** The same model, but the first forward waits for the gate, so submissions pile up behind it. */
    private FakeModelRunner gated(Function<List<Integer>, float[]> model) {
        return FakeModelRunner.gated(VOCAB, entered, gate, model);
    }

    private static List<GenerationRequest> requests() {
        return List.of(GenerationRequest.of(new int[] {1, 2, 3, 4, 5}, params(b -> b.maxTokens(6))),
                GenerationRequest.of(new int[] {7}, params(b -> b.temperature(0.8).seed(3).n(2).maxTokens(9))),
                GenerationRequest.of(new int[] {2, 2}, params(b -> b.temperature(1.2).topP(0.9).seed(9).maxTokens(4)
                        .logprobs(2))));
    }

    @Test
    void batchedRequestsGiveWhatEachGivesAlone() {
        List<GenerationResult> alone = new ArrayList<>();
        for (GenerationRequest request : requests()) {
            try (Generator generator = Generations.generator(new FakeModelRunner(VOCAB, 64,
                    GeneratorBatchingTest::contextual), 64, 64, 8)) {
                alone.add(value(generator.generate(request)));
            }
        }
        FakeModelRunner runner = gated(GeneratorBatchingTest::contextual);
        try (Generator generator = Generations.generator(runner, 64, 2, 8)) {
            List<Recorder> recorders = requests().stream().map(r -> new Recorder()).toList();
            List<GenerationHandle> handles = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                handles.add(value(generator.submit(requests().get(i), recorders.get(i))));
            }
            gate.countDown();
            for (int i = 0; i < 3; i++) {
                GenerationResult together = handles.get(i).result().join();
                recorders.get(i).assertDeltasMatch(together);
                assertEquals(alone.get(i).promptTokens(), together.promptTokens());
                assertEquals(alone.get(i).sequences().stream().map(SequenceOutput::tokenIds).toList(),
                        together.sequences().stream().map(SequenceOutput::tokenIds).toList());
                assertEquals(alone.get(i).sequences().stream().map(SequenceOutput::text).toList(),
                        together.sequences().stream().map(SequenceOutput::text).toList());
            }
        }
        assertTrue(runner.batches.stream().anyMatch(batch -> batch.size() == 4), "all four sequences in one step");
        // the 5-token prompt goes in chunks of 2; no input is longer
        assertEquals(2, runner.batches.getFirst().getFirst());
        assertTrue(runner.batches.stream().flatMap(List::stream).allMatch(length -> length <= 2));
        assertTrue(runner.caches.stream().allMatch(TokenListCache::closed), "every cache freed");
    }

    @Test
    void lowerPriorityValuesRunFirst() throws InterruptedException {
        List<Recorder> order = new CopyOnWriteArrayList<>();
        try (Generator generator = Generations.generator(gated(GeneratorBatchingTest::prefersA), 64, 64, 1)) {
            Recorder first = new Recorder(order);
            Recorder late = new Recorder(order);
            Recorder urgent = new Recorder(order);
            value(generator.submit(GenerationRequest.of(new int[] {1}, params(b -> b.maxTokens(1))), first));
            assertTrue(entered.await(5, TimeUnit.SECONDS));
            GenerationHandle lateHandle = value(generator.submit(
                    new GenerationRequest(new int[] {1}, params(b -> b.maxTokens(1)), 5), late));
            value(generator.submit(new GenerationRequest(new int[] {1}, params(b -> b.maxTokens(1)), -1), urgent));
            gate.countDown();
            // Wait for the last one to run (not for a later request, which priority 0 would run before it).
            lateHandle.result().join();
            assertTrue(Await.until(() -> order.size() == 3), "every listener heard its end: " + order);
            assertEquals(List.of(first, urgent, late), order);
        }
    }

    @Test
    void aCancelledRequestEndsWithAbort() {
        try (Generator generator = Generations.generator(gated(GeneratorBatchingTest::prefersA), 64, 64, 8)) {
            GenerationHandle running = value(generator.submit(GenerationRequest.of(new int[] {1},
                    params(b -> b.maxTokens(3))), GenerationListener.NONE));
            Recorder recorder = new Recorder();
            GenerationHandle cancelled = value(generator.submit(GenerationRequest.of(new int[] {1},
                    params(b -> b.maxTokens(3))), recorder));
            cancelled.cancel();
            gate.countDown();
            GenerationResult result = cancelled.result().join();
            recorder.assertDeltasMatch(result);
            assertEquals(FinishReason.ABORT, result.sequences().getFirst().finish().reason());
            assertEquals(3, running.result().join().completionTokens());
        }
    }

    @Test
    void anEngineFailureFailsTheRequestAndTheGeneratorCarriesOn() {
        FakeModelRunner runner = new FakeModelRunner(VOCAB, 64, context -> {
            if (context.getFirst() == 3) {
                throw new EngineException(EngineException.Reason.FORWARD_FAILED, "out of memory");
            }
            return prefersA(context);
        });
        try (Generator generator = Generations.generator(runner, 64, 64, 8)) {
            Recorder recorder = new Recorder();
            GenerationHandle failing = value(generator.submit(GenerationRequest.of(new int[] {3}, params(b -> b)),
                    recorder));
            var thrown = assertThrows(CompletionException.class, () -> failing.result().join());
            assertInstanceOf(EngineException.class, thrown.getCause());
            assertEquals(1, recorder.failures.size());
            assertEquals(2, value(generator.generate(GenerationRequest.of(new int[] {1}, params(b -> b.maxTokens(2)))))
                    .completionTokens());
        }
    }
}
