package dev.crucible.runtime.generation;

import static dev.crucible.runtime.generation.FakeTokenizer.VOCAB;
import static dev.crucible.runtime.generation.Generations.params;
import static dev.crucible.runtime.generation.Generations.prompt;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.spi.EngineException;
import dev.crucible.runtime.generation.stopping.FinishReason;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Requests admitted in one step with prompts sharing full blocks: the first prefills, the others wait for it and
 * restore its blocks. A blocking request of another tenant holds the first forward until every request is queued,
 * so they are admitted together.
 */
class GeneratorPrefillSharingTest {

    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch gate = new CountDownLatch(1);



    /**
     * {@code prompt} with its last token changed when {@code k > 0}: the same full blocks, another prompt, so it shares
     * the blocks' prefill rather than the whole prompt ({@link GeneratorSharedPrefillTest} covers identical prompts).
     */
    private static int[] tailed(int[] prompt, int k) {
        int[] out = prompt.clone();
        if (k > 0) {
            out[out.length - 1] = 1 + (out[out.length - 1] - 1 + k) % (VOCAB - 1);
        }
        return out;
    }

    private static GenerationRequest request(int[] prompt, Optional<String> salt) {
        return new GenerationRequest(prompt, params(b -> b.maxTokens(5).ignoreEos(true)), 0, null, Optional.empty(),
                new RequestOwner("team", "key"), salt);
    }

    private static GenerationRequest request(int[] prompt) {
        return request(prompt, Optional.empty());
    }

    /**
     * A runner that cancels the handle in {@code target}, once it is set, while a prompt's second chunk of 8 tokens
     * is forwarded.
     */
    private FakeModelRunner cancellingAtSecondChunk(AtomicReference<GenerationHandle> target) {
        return runner(context -> {
            if (context.size() == 16 && target.get() != null) {
                target.getAndSet(null).cancel();
            }
        });
    }

    /**
     * The positional model; the blocker's one-token prompt waits for the gate, and {@code hook} sees every context
     * first (on the generator's thread, inside the forward).
     */
    private FakeModelRunner runner(Consumer<List<Integer>> hook) {
        return new FakeModelRunner(VOCAB, 96, context -> {
            if (context.size() == 1) {
                entered.countDown();
                try {
                    gate.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            hook.accept(context);
            return Generations.positional(context);
        });
    }

    private static Generator generator(FakeModelRunner runner, int chunk, int prefixCacheTokens) {
        return Generator.start(runner, new FakeTokenizer(), Generations.EOS,
                new GeneratorOptions(96, chunk, 8, 16, prefixCacheTokens));
    }

    /**
     * Submits {@code requests} while a one-token request of another tenant holds the generator's first forward
     * (batch 0) until the test opens the gate, so all are admitted in one step, in order.
     */
    private List<GenerationHandle> queuedBehindBlocker(Generator generator, List<GenerationRequest> requests)
            throws InterruptedException {
        value(generator.submit(new GenerationRequest(new int[] {3}, params(b -> b.maxTokens(1)), 0, null,
                Optional.empty(), new RequestOwner("blocker", "key"), Optional.empty()), GenerationListener.NONE));
        assertTrue(entered.await(5, TimeUnit.SECONDS));
        List<GenerationHandle> handles = new ArrayList<>();
        for (GenerationRequest request : requests) {
            handles.add(value(generator.submit(request, GenerationListener.NONE)));
        }
        return handles;
    }

    /**
     * What {@code requests} end with when a generator with chunks of 64 and {@code prefixCacheTokens} of prefix cache
     * admits them all in one step behind the blocker ({@link #queuedBehindBlocker}).
     */
    private List<GenerationResult> ranTogether(FakeModelRunner runner, int prefixCacheTokens,
            List<GenerationRequest> requests) throws InterruptedException {
        try (Generator generator = generator(runner, 64, prefixCacheTokens)) {
            List<GenerationHandle> handles = queuedBehindBlocker(generator, requests);
            gate.countDown();
            return handles.stream().map(handle -> handle.result().join()).toList();
        }
    }

    /** What {@code prompt} generates alone, with no cache to restore from. */
    private static List<Integer> alone(int[] prompt) {
        try (Generator generator = generator(new FakeModelRunner(VOCAB, 96,
                Generations::positional), 64, 0)) {
            return value(generator.generate(request(prompt))).sequences().getFirst().tokenIds();
        }
    }

    private static List<Integer> tokens(GenerationHandle handle) {
        return handle.result().join().sequences().getFirst().tokenIds();
    }

    private static List<Integer> cachedTokens(List<GenerationHandle> handles) {
        return handles.stream().map(h -> h.result().join().cachedTokens()).toList();
    }

    @Test
    void promptsSharingTheirBlocksAdmittedTogetherPrefillThemOnceAndForwardOnlyTheirTails()
            throws InterruptedException {
        int[] prompt = prompt(40, 0);
        FakeModelRunner runner = runner(context -> { });
        try (Generator generator = generator(runner, 64, 1024)) {
            List<GenerationHandle> handles = queuedBehindBlocker(generator, List.of(request(prompt),
                    request(tailed(prompt, 1)), request(tailed(prompt, 2)), request(tailed(prompt, 3))));
            gate.countDown();
            for (int i = 0; i < handles.size(); i++) {
                assertEquals(alone(tailed(prompt, i)), tokens(handles.get(i)), "greedy output as if prefilled alone");
            }
            assertEquals(List.of(40), runner.batches.get(1), "only the first prefills; the others wait");
            assertEquals(List.of(1, 8, 8, 8), runner.batches.get(2), "then restore two blocks, forward the tail");
            assertEquals(List.of(0, 32, 32, 32), cachedTokens(handles));
            assertEquals(1 + 40 + 3 * 8, generator.snapshot().prefillTokens());
        }
    }

    @Test
    void aWaiterWhoseAwaitedPrefillIsCancelledPrefillsItself() throws Exception {
        int[] prompt = prompt(40, 0);
        AtomicReference<GenerationHandle> leader = new AtomicReference<>();
        FakeModelRunner runner = cancellingAtSecondChunk(leader); // the leader's second chunk of 8: mid-prefill
        try (Generator generator = generator(runner, 8, 1024)) {
            List<GenerationHandle> handles = queuedBehindBlocker(generator, List.of(request(prompt),
                    request(tailed(prompt, 1))));
            leader.set(handles.getFirst());
            gate.countDown();
            GenerationResult cancelled = handles.getFirst().result().join();
            GenerationResult waiter = handles.getLast().result().get(5, TimeUnit.SECONDS);
            assertEquals(FinishReason.ABORT, cancelled.sequences().getFirst().finish().reason());
            assertEquals(List.of(8), runner.batches.get(1), "the waiter does not forward while it waits");
            assertEquals(List.of(8), runner.batches.get(2));
            assertEquals(List.of(8), runner.batches.get(3), "the waiter's own first chunk; the leader is gone");
            assertEquals(alone(tailed(prompt, 1)), waiter.sequences().getFirst().tokenIds());
            assertEquals(0, waiter.cachedTokens(), "nothing was donated, so nothing restored");
            assertEquals(1 + 16 + 40, generator.snapshot().prefillTokens());
        }
    }

    @Test
    void aWaiterWhoseAwaitedPrefillFailsPrefillsItself() throws Exception {
        int[] prompt = prompt(40, 0);
        AtomicBoolean failed = new AtomicBoolean();
        FakeModelRunner runner = runner(context -> {
            if (context.size() == 16 && failed.compareAndSet(false, true)) {
                throw new EngineException(EngineException.Reason.FORWARD_FAILED, "out of memory");
            }
        });
        try (Generator generator = generator(runner, 8, 1024)) {
            List<GenerationHandle> handles = queuedBehindBlocker(generator, List.of(request(prompt),
                    request(tailed(prompt, 1))));
            gate.countDown();
            CompletionException thrown = assertThrows(CompletionException.class,
                    () -> handles.getFirst().result().join());
            assertInstanceOf(EngineException.class, thrown.getCause());
            GenerationResult waiter = handles.getLast().result().get(5, TimeUnit.SECONDS);
            assertEquals(alone(tailed(prompt, 1)), waiter.sequences().getFirst().tokenIds());
            assertEquals(0, waiter.cachedTokens());
        }
    }

    @Test
    void aWaiterCancelledWhileWaitingEndsAndTheOneItAwaitedGoesOn() throws Exception {
        int[] prompt = prompt(40, 0);
        AtomicReference<GenerationHandle> waiter = new AtomicReference<>();
        FakeModelRunner runner = cancellingAtSecondChunk(waiter);
        try (Generator generator = generator(runner, 8, 1024)) {
            List<GenerationHandle> handles = queuedBehindBlocker(generator, List.of(request(prompt),
                    request(tailed(prompt, 1))));
            waiter.set(handles.getLast());
            gate.countDown();
            GenerationResult cancelled = handles.getLast().result().get(5, TimeUnit.SECONDS);
            assertEquals(FinishReason.ABORT, cancelled.sequences().getFirst().finish().reason());
            assertEquals(List.of(), cancelled.sequences().getFirst().tokenIds());
            assertEquals(0, cancelled.cachedTokens());
            assertEquals(alone(prompt), tokens(handles.getFirst()));
            assertEquals(1 + 40, generator.snapshot().prefillTokens(), "the waiter forwarded nothing");
        }
    }

    @Test
    void theSiblingsOfAWaiterCopyItsPromptOnceItHasRestored() throws InterruptedException {
        int[] prompt = prompt(40, 0);
        FakeModelRunner runner = runner(context -> { });
        GenerationResult three = ranTogether(runner, 1024, List.of(request(prompt),
                new GenerationRequest(tailed(prompt, 1), params(b -> b.temperature(1).topK(1).seed(2).n(3)
                        .maxTokens(5).ignoreEos(true)), 0, null, Optional.empty(), new RequestOwner("team", "key"),
                        Optional.empty()))).getLast();
        List<Integer> expected = alone(tailed(prompt, 1));
        three.sequences().forEach(s -> assertEquals(expected, s.tokenIds(), "sequence " + s.index()));
        assertEquals(32, three.cachedTokens());
        assertEquals(List.of(40), runner.batches.get(1));
        assertEquals(List.of(1, 8), runner.batches.get(2), "one tail for the request's three sequences");
        assertEquals(List.of(1, 1, 1, 1), runner.batches.get(3));
    }

    @Test
    void withThePrefixCacheOffNobodyWaits() throws InterruptedException {
        int[] prompt = prompt(40, 0);
        FakeModelRunner runner = runner(context -> { });
        List<GenerationResult> results = ranTogether(runner, 0, List.of(request(prompt), request(tailed(prompt, 1)),
                request(tailed(prompt, 2))));
        assertEquals(List.of(0, 0, 0), results.stream().map(GenerationResult::cachedTokens).toList());
        assertEquals(List.of(40, 40, 40), runner.batches.get(1));
    }

    @Test
    void aPromptSharingOnlyTheFirstBlockWaitsForIt() throws InterruptedException {
        int[] first = prompt(40, 0);
        int[] second = first.clone();
        second[20] = second[20] == 1 ? 2 : 1;
        int[] unrelated = prompt(40, 7);
        FakeModelRunner runner = runner(context -> { });
        List<GenerationResult> results = ranTogether(runner, 1024, List.of(request(first), request(second),
                request(unrelated), request(second, Optional.of("salt"))));
        assertEquals(List.of(0, 16, 0, 0), results.stream().map(GenerationResult::cachedTokens).toList());
        assertEquals(List.of(40, 40, 40), runner.batches.get(1),
                "the second waits for its one shared block; another prompt and another scope do not");
        assertEquals(List.of(1, 24, 1, 1), runner.batches.get(2), "the second restores block 0 from the first");
        assertEquals(alone(second), results.get(1).sequences().getFirst().tokenIds());
    }

    @Test
    void aPromptSharingOnlyABlockTheCacheHoldsAlreadyDoesNotWait() throws InterruptedException {
        int[] first = prompt(40, 0);
        int[] second = first.clone();
        second[20] = second[20] == 1 ? 2 : 1;
        FakeModelRunner runner = runner(context -> { });
        try (Generator generator = generator(runner, 64, 1024)) {
            value(generator.generate(request(Arrays.copyOf(first, 17))));
            int before = runner.batches.size();
            List<GenerationHandle> handles = queuedBehindBlocker(generator, List.of(request(first),
                    request(second)));
            gate.countDown();
            assertEquals(List.of(16, 16), cachedTokens(handles));
            assertEquals(List.of(24, 24), runner.batches.get(before + 1), "both restore block 0 and forward at once");
        }
    }
}
