package dev.crucible.runtime.generation;

import static dev.crucible.runtime.generation.FakeTokenizer.VOCAB;
import static dev.crucible.runtime.generation.Generations.params;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.engine.spi.SequenceLogits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The prefill budget counted in steps: while a stream decodes, a long prompt arriving goes in budget-sized pieces,
 * one per step, each step also decoding the stream, so the stream never waits for more than the budget; with nothing
 * decoding a prompt goes at the full chunk. The schedule changes no output.
 */
class GeneratorPrefillBudgetTest {

    private static final int CHUNK = 64;
    private static final int BUDGET = 4;

    private final CountDownLatch gate = new CountDownLatch(1);
    private final CountDownLatch entered = new CountDownLatch(1);

    private static Generator generator(FakeModelRunner runner, PrefillBudget budget) {
        return Generator.start(runner, new FakeTokenizer(), Generations.EOS, new GeneratorOptions(CHUNK, CHUNK, 8,
                GeneratorOptions.DEFAULT_MAX_WAITING_REQUESTS, 0, budget, Duration.ZERO));
    }

    /** A stream of {@code tokens} tokens from a 2-token prompt. */
    private static GenerationRequest stream(int tokens) {
        return GenerationRequest.of(new int[] {1, 2}, params(b -> b.maxTokens(tokens).ignoreEos(true)));
    }

    private static GenerationRequest longPrompt(int length, int from) {
        return GenerationRequest.of(Generations.prompt(length, from), params(b -> b.maxTokens(3).ignoreEos(true)));
    }

    /**
     * The batches of a stream of {@code streamTokens} tokens and a {@code promptLength}-token prompt arriving while
     * the stream's own prompt is being forwarded.
     */
    private List<List<Integer>> streamThenLongPrompt(PrefillBudget budget, int streamTokens, int promptLength) {
        FakeModelRunner runner = FakeModelRunner.gated(VOCAB, entered, gate, Generations::positional);
        try (Generator generator = generator(runner, budget)) {
            arriveWhileDecoding(generator, stream(streamTokens), longPrompt(promptLength, 3))
                    .forEach(h -> h.result().join());
        }
        return runner.batches;
    }

    @Test
    void aLongPromptGoesInBudgetPiecesBetweenTheStreamsDecodeSteps() {
        // the stream's prompt alone, then 18 prompt tokens in pieces of 4 beside its decode steps, then both decode
        assertEquals(List.of(List.of(2), List.of(1, 4), List.of(1, 4), List.of(1, 4), List.of(1, 4), List.of(1, 2),
                List.of(1, 1), List.of(1, 1)), streamThenLongPrompt(PrefillBudget.fixed(BUDGET), 12, 18).subList(0, 8));
    }

    @Test
    void prefillingSequencesShareTheBudgetInArrivalOrder() {
        FakeModelRunner runner = FakeModelRunner.gated(VOCAB, entered, gate, Generations::positional);
        try (Generator generator = generator(runner, PrefillBudget.fixed(BUDGET))) {
            arriveWhileDecoding(generator, stream(10), longPrompt(6, 3), longPrompt(6, 9))
                    .forEach(h -> h.result().join());
        }
        // the second prompt sits the first step out, takes what the first leaves of the next, then the rest
        assertEquals(List.of(List.of(2), List.of(1, 4), List.of(1, 2, 2), List.of(1, 1, 4), List.of(1, 1, 1)),
                runner.batches.subList(0, 5));
    }

    @Test
    void pacedAPromptWaitsForOneTimedDecodeStepThenStartsAtOneTokenAndAtMostDoubles() {
        // whatever the timings: the stream's prompt alone, one step decoding it alone (the only one timed so far),
        // then the prompt beside it from one token, each piece at most twice the one before, all 30 tokens forwarded;
        // a piece is never under one token, so the stream's 38 steps beside the prompt outlast it even where the
        // timings keep every piece at one (on a loaded machine a 60-token prompt had 44 forwarded when the stream ended)
        List<List<Integer>> batches = streamThenLongPrompt(PrefillBudget.paced(3), 40, 30);
        assertEquals(List.of(List.of(2), List.of(1), List.of(1, 1)), batches.subList(0, 3));
        int last = 1;
        int forwarded = 1;
        for (List<Integer> batch : batches.subList(3, batches.size())) {
            if (batch.size() == 2 && forwarded < 30) {
                assertTrue(batch.get(1) <= 2 * last, batch + " after a piece of " + last);
                last = batch.get(1);
                forwarded += last;
            }
        }
        assertEquals(30, forwarded);
    }

    /**
     * A model timed by a fake clock: a forward advances it by a decode part ({@code 100 ms + 1 ms} a decoding row) and,
     * for each prompt piece, {@code 5 ms + 2.2 ms} a token {@code + 1 us} a token per position of the prefix (this
     * machine's 0.5B model, roughly, in the ONNX engine, which runs a piece in the decoding rows' own run). Once the stream has had {@code arriveAfter} forwards it submits
     * the long prompt itself, so the prompt arrives while the stream decodes.
     */
    private static final class TimedRunner extends FakeModelRunner {

        final AtomicLong clock = new AtomicLong();
        /** Per forward: decoding rows, prompt tokens, the first piece's position, its time. */
        final List<long[]> steps = new ArrayList<>();
        private final int arriveAfter;
        private final GenerationRequest arriving;
        volatile Generator generator;
        volatile GenerationHandle arrived;

        TimedRunner(int arriveAfter, GenerationRequest arriving) {
            super(VOCAB, 2048, Generations::positional);
            this.arriveAfter = arriveAfter;
            this.arriving = arriving;
        }

        @Override
        public synchronized List<SequenceLogits> forward(List<SequenceInput> batch) {
            // the stream's cache is the first made: past its 2-token prompt it decodes; the other one prefills until
            // it holds the long prompt
            long decoding = batch.stream().filter(i -> i.cache() == caches.getFirst() && i.cache().length() >= 2)
                    .count();
            long prompt = 0;
            long position = -1;
            double nanos = decoding == 0 ? 0 : 100e6 + 1e6 * decoding;
            for (SequenceInput input : batch) {
                int k = input.length();
                if (input.cache() == caches.getFirst() ? input.cache().length() < 2
                        : input.cache().length() < arriving.promptTokenIds().length) {
                    int p = input.cache().length();
                    nanos += 5e6 + 2.2e6 * k + 1e3 * k * (p + (k - 1) / 2.0);
                    prompt += k;
                    position = position < 0 ? p : position;
                }
            }
            clock.addAndGet((long) nanos);
            steps.add(new long[] {decoding, prompt, position, (long) nanos});
            if (steps.size() == arriveAfter) {
                arrived = value(generator.submit(arriving, GenerationListener.NONE));
            }
            return super.forward(batch);
        }
    }

    @Test
    void pacedEveryStepBesideTheStreamStaysWithinThreeOfItsDecodeStepsByTheClock() {
        // the stream's 2-token prompt counts as a prefill; its decode steps take 101 ms
        TimedRunner runner = new TimedRunner(5, longPrompt(1500, 3));
        GenerationRequest stream = GenerationRequest.of(new int[] {1, 2}, params(b -> b.maxTokens(400).ignoreEos(true)));
        try (Generator generator = Generator.start(runner, new FakeTokenizer(), Generations.EOS,
                new GeneratorOptions(2048, 512, 8, GeneratorOptions.DEFAULT_MAX_WAITING_REQUESTS, 0,
                        PrefillBudget.paced(3), Duration.ZERO), runner.clock::get)) {
            runner.generator = generator;
            GenerationHandle streaming = value(generator.submit(stream, GenerationListener.NONE));
            streaming.result().join();
            runner.arrived.result().join();
        }
        long prompt = 0;
        int mixed = 0;
        for (long[] step : runner.steps) {
            if (step[0] > 0 && step[1] > 0 && step[2] > 0) {
                assertTrue(step[3] <= 3 * 101e6, "a step of " + step[3] / 1e6 + " ms: " + java.util.Arrays.toString(step));
                prompt += step[1];
                mixed++;
            }
        }
        // the whole prompt went beside the stream (position 0's one-token piece aside), in pieces that filled the
        // allowance: about 1,500 tokens in far fewer steps than the 400 the stream decodes
        assertEquals(1499, prompt);
        assertTrue(mixed < 150, mixed + " mixed steps");
    }

    @Test
    void withNothingDecodingAPromptGoesAtTheFullChunk() {
        FakeModelRunner runner = new FakeModelRunner(VOCAB, CHUNK, Generations::positional);
        try (Generator generator = generator(runner, PrefillBudget.fixed(BUDGET))) {
            value(generator.generate(longPrompt(40, 5)));
        }
        assertEquals(List.of(40), runner.batches.getFirst());
    }

    @Test
    void theBudgetChangesNoOutput() {
        FakeModelRunner unbounded = new FakeModelRunner(VOCAB, CHUNK, Generations::positional);
        List<List<Integer>> alone;
        try (Generator generator = generator(unbounded, PrefillBudget.UNBOUNDED)) {
            alone = List.of(value(generator.generate(stream(12))), value(generator.generate(longPrompt(18, 3))))
                    .stream().map(r -> r.sequences().getFirst().tokenIds()).toList();
        }
        FakeModelRunner budgeted = FakeModelRunner.gated(VOCAB, entered, gate, Generations::positional);
        try (Generator generator = generator(budgeted, PrefillBudget.fixed(BUDGET))) {
            assertEquals(alone, arriveWhileDecoding(generator, stream(12), longPrompt(18, 3)).stream()
                    .map(h -> h.result().join().sequences().getFirst().tokenIds()).toList());
        }
    }

    @Test
    void anIdleLoopReleasesTheRunnersMemoryOnceAfterABurst() throws InterruptedException {
        AtomicInteger releases = new AtomicInteger();
        CountDownLatch released = new CountDownLatch(1);
        FakeModelRunner runner = new FakeModelRunner(VOCAB, CHUNK, Generations::positional) {
            @Override
            public void releaseIdleMemory() {
                releases.incrementAndGet();
                released.countDown();
            }
        };
        try (Generator generator = Generator.start(runner, new FakeTokenizer(), Generations.EOS,
                new GeneratorOptions(CHUNK, CHUNK, 8, GeneratorOptions.DEFAULT_MAX_WAITING_REQUESTS, 0,
                        PrefillBudget.UNBOUNDED, Duration.ofMillis(1)))) {
            value(generator.generate(stream(3)));
            assertTrue(released.await(5, TimeUnit.SECONDS), "released once idle");
            // idle polls go on (every 100 ms) without asking again until something has run
            int before = releases.get();
            Thread.sleep(300);
            assertEquals(before, releases.get());
        }
    }

    /**
     * Submits {@code stream} to a generator over the gated runner, waits for its first forward, submits
     * {@code arriving} in order behind it and opens the gate; answers the handles, the stream's first.
     */
    private List<GenerationHandle> arriveWhileDecoding(Generator generator, GenerationRequest stream,
            GenerationRequest... arriving) {
        List<GenerationHandle> handles = new ArrayList<>();
        handles.add(value(generator.submit(stream, GenerationListener.NONE)));
        awaitFirstForward();
        for (GenerationRequest request : arriving) {
            handles.add(value(generator.submit(request, GenerationListener.NONE)));
        }
        gate.countDown();
        return handles;
    }

    private void awaitFirstForward() {
        try {
            assertTrue(entered.await(5, TimeUnit.SECONDS), "the stream's first forward started");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
