package dev.crucible.runtime.generation;

import static dev.crucible.runtime.generation.FakeTokenizer.VOCAB;
import static dev.crucible.runtime.generation.Generations.params;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.refusal;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.testsupport.concurrent.Await;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The generation thread survives whatever its step throws, {@link Error}s included: the requests concerned fail, the
 * loop goes on; an engine that fails step after step stops the loop, which then says so and refuses new requests.
 */
class GeneratorFailureTest {

    /** Token {@code B} in a context makes the model throw an {@link OutOfMemoryError}; otherwise it prefers "a". */
    private static float[] boomOnB(java.util.List<Integer> context) {
        if (context.contains(FakeTokenizer.B)) {
            throw new OutOfMemoryError("scripted: no memory for this forward");
        }
        float[] logits = new float[VOCAB];
        logits[FakeTokenizer.A] = 1;
        return logits;
    }

    private static Generator generator(FakeModelRunner runner) {
        return Generator.start(runner, new FakeTokenizer(), Generations.EOS, new GeneratorOptions(64, 64, 4, 16));
    }

    private static GenerationRequest request(int token, int n) {
        return new GenerationRequest(new int[] {FakeTokenizer.D, token}, params(b -> b.maxTokens(3).n(n)
                .temperature(n > 1 ? 1.0 : 0)), 0, null, Optional.empty(), new RequestOwner("e", "k"));
    }

    /** The failure {@code handle} ends with; a request that never ends (the loop died) fails the test in 30 s. */
    private static Throwable failureOf(GenerationHandle handle) {
        return assertThrows(ExecutionException.class, () -> handle.result().get(30, TimeUnit.SECONDS)).getCause();
    }

    @Test
    void anErrorInAForwardFailsItsBatchAndTheNextRequestIsServed() {
        try (Generator generator = generator(new FakeModelRunner(VOCAB, 64, GeneratorFailureTest::boomOnB))) {
            Recorder heard = new Recorder();
            GenerationHandle doomed = value(generator.submit(request(FakeTokenizer.B, 1), heard));

            Throwable failure = failureOf(doomed);

            assertInstanceOf(GenerationFailure.class, failure);
            assertInstanceOf(OutOfMemoryError.class, failure.getCause());
            assertTrue(Await.until(() -> heard.failures.size() == 1), "the listener hears the failure");
            assertEquals(Optional.empty(), generator.failure(), "one failed step does not break the loop");
            GenerationResult next = value(generator.submit(request(FakeTokenizer.A, 1), GenerationListener.NONE))
                    .result().join();
            assertEquals(3, next.completionTokens());
        }
    }

    @Test
    void aListenerThrowingAnErrorFailsOnlyItsOwnRequest() {
        try (Generator generator = generator(new FakeModelRunner(VOCAB, 64, GeneratorFailureTest::boomOnB))) {
            GenerationListener throwing = new GenerationListener() {
                @Override
                public void onDelta(GenerationDelta delta) {
                    throw new StackOverflowError("scripted listener");
                }
            };
            GenerationHandle failing = value(generator.submit(request(FakeTokenizer.A, 1), throwing));
            GenerationHandle other = value(generator.submit(request(FakeTokenizer.A, 1), GenerationListener.NONE));

            assertInstanceOf(StackOverflowError.class, failureOf(failing).getCause());
            assertEquals(3, other.result().join().completionTokens());
            assertEquals(Optional.empty(), generator.failure());
        }
    }

    @Test
    void anErrorAllocatingCachesFailsThatRequestAlone() {
        AtomicBoolean refuseMemory = new AtomicBoolean(true);
        FakeModelRunner runner = new FakeModelRunner(VOCAB, 64, GeneratorFailureTest::boomOnB) {
            @Override
            public synchronized dev.crucible.engine.spi.KvCache newCache(int capacityTokens) {
                if (refuseMemory.getAndSet(false)) {
                    throw new OutOfMemoryError("scripted: no memory for a cache");
                }
                return super.newCache(capacityTokens);
            }
        };
        try (Generator generator = generator(runner)) {
            GenerationHandle first = value(generator.submit(request(FakeTokenizer.A, 1), GenerationListener.NONE));

            assertInstanceOf(OutOfMemoryError.class, failureOf(first).getCause());
            GenerationResult next = value(generator.submit(request(FakeTokenizer.A, 1), GenerationListener.NONE))
                    .result().join();
            assertEquals(3, next.completionTokens());
        }
    }

    @Test
    void anEngineFailingStepAfterStepStopsTheLoopWhichSaysSoAndRefusesNewRequests() {
        AtomicBoolean broken = new AtomicBoolean();
        FakeModelRunner runner = new FakeModelRunner(VOCAB, 64, context -> {
            if (broken.get()) {
                throw new InternalError("scripted: the engine is broken");
            }
            return boomOnB(context);
        });
        try (Generator generator = generator(runner)) {
            broken.set(true);
            for (int i = 0; i < StepFailures.MAX_FAILED_STEPS; i++) {
                GenerationHandle handle = value(generator.submit(request(FakeTokenizer.A, 1),
                        GenerationListener.NONE));
                assertInstanceOf(InternalError.class, failureOf(handle).getCause());
            }

            assertTrue(Await.until(() -> generator.failure().isPresent()));
            assertTrue(generator.failure().orElseThrow().contains("steps failed"), generator.failure().orElseThrow());
            Refusal refused = refusal(generator.submit(request(FakeTokenizer.A, 1), GenerationListener.NONE));
            assertEquals(Refusal.Reason.NOT_READY, refused.reason());
            assertTrue(refused.retryAfter().isPresent());
        }
    }

    @Test
    void aSuccessfulForwardClearsTheCountOfFailedSteps() {
        try (Generator generator = generator(new FakeModelRunner(VOCAB, 64, GeneratorFailureTest::boomOnB))) {
            for (int round = 0; round < 2 * StepFailures.MAX_FAILED_STEPS; round++) {
                GenerationHandle failing = value(generator.submit(request(FakeTokenizer.B, 1),
                        GenerationListener.NONE));
                assertInstanceOf(OutOfMemoryError.class, failureOf(failing).getCause());
                assertEquals(3, value(generator.submit(request(FakeTokenizer.A, 1), GenerationListener.NONE))
                        .result().join().completionTokens());
            }
            assertEquals(Optional.empty(), generator.failure());
        }
    }

    @Test
    void aClosedGeneratorRefusesAsNotReady() {
        Generator generator = generator(FakeModelRunner.peaked(VOCAB, context -> FakeTokenizer.A));
        generator.close();

        Refusal refused = refusal(generator.submit(request(FakeTokenizer.A, 1), GenerationListener.NONE));

        assertEquals(Refusal.Reason.NOT_READY, refused.reason());
        assertEquals(Optional.empty(), generator.failure(), "a closed generator has not failed");
    }

    @Test
    void refusesNAboveTheBatchNamingN() {
        try (Generator generator = generator(FakeModelRunner.peaked(VOCAB, context -> FakeTokenizer.A))) {
            String message = assertRefused(generator.submit(request(FakeTokenizer.A, 5), GenerationListener.NONE),
                    Refusal.Reason.INVALID, "n");

            assertEquals("n must be at most 4, got 5: the model decodes at most 4 sequences together.", message);
            assertEquals(4, value(generator.submit(request(FakeTokenizer.A, 4), GenerationListener.NONE)).result()
                    .join().sequences().size());
        }
    }
}
