package dev.crucible.runtime.generation;

import static dev.crucible.runtime.generation.FakeTokenizer.VOCAB;
import static dev.crucible.runtime.generation.Generations.params;
import static dev.crucible.runtime.generation.Generations.prompt;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.runtime.generation.sampling.SamplingParams;
import dev.crucible.runtime.generation.stopping.FinishReason;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Requests with the same prompt admitted together share one prefill: the first forwards the prompt, the others copy it
 * and sample from its logits, and each generates what it would have generated alone.
 */
class GeneratorSharedPrefillTest {

    private final CountDownLatch gate = new CountDownLatch(1);
    private final CountDownLatch entered = new CountDownLatch(1);



    private static GenerationRequest request(int[] prompt, String entity, SamplingParams p) {
        return new GenerationRequest(prompt, p, 0, null, Optional.empty(), new RequestOwner(entity, "key"),
                Optional.empty());
    }

    private static SamplingParams greedy(int tokens) {
        return params(b -> b.maxTokens(tokens).ignoreEos(true));
    }

    /** A runner whose first forward waits for the gate, and a generator on it with prefill chunks of {@code chunk}. */
    private Generator gatedGenerator(FakeModelRunner runner, int chunk, int prefixCacheTokens) {
        return Generator.start(runner, new FakeTokenizer(), Generations.EOS,
                new GeneratorOptions(64, chunk, 16, 16, prefixCacheTokens));
    }

    private FakeModelRunner gated() {
        return FakeModelRunner.gated(VOCAB, entered, gate, Generations::positional);
    }

    /** What {@code request} generates on a fresh generator, alone. */
    private static GenerationResult alone(GenerationRequest request) {
        FakeModelRunner runner = new FakeModelRunner(VOCAB, 64, Generations::positional);
        try (Generator generator = Generator.start(runner, new FakeTokenizer(), Generations.EOS,
                new GeneratorOptions(64, 64, 16, 16, 0))) {
            return value(generator.generate(request));
        }
    }

    /** Submits a blocker, waits until its forward holds the loop, submits {@code requests}, then opens the gate. */
    private List<GenerationHandle> piledUp(Generator generator, List<GenerationRequest> requests) throws Exception {
        value(generator.submit(request(new int[] {3}, "team", greedy(1)), GenerationListener.NONE));
        assertTrue(entered.await(5, TimeUnit.SECONDS));
        List<GenerationHandle> handles = new ArrayList<>();
        for (GenerationRequest r : requests) {
            handles.add(value(generator.submit(r, GenerationListener.NONE)));
        }
        gate.countDown();
        return handles;
    }

    @Test
    void identicalPromptsAdmittedTogetherShareOnePrefill() throws Exception {
        FakeModelRunner runner = gated();
        int[] prompt = prompt(40, 0);
        List<GenerationRequest> four = List.of(request(prompt, "team", greedy(5)), request(prompt, "team", greedy(3)),
                request(prompt, "team", params(b -> b.temperature(0.8).seed(4).n(2).maxTokens(4).ignoreEos(true))),
                request(prompt, "team", greedy(5)));
        try (Generator generator = gatedGenerator(runner, 64, 0)) {
            List<GenerationHandle> handles = piledUp(generator, four);
            List<GenerationResult> results = new ArrayList<>();
            for (GenerationHandle h : handles) {
                results.add(h.result().get(10, TimeUnit.SECONDS));
            }
            assertEquals(List.of(40), runner.batches.get(1), "one prefill for the four requests, after the blocker");
            assertEquals(List.of(40, 40, 40, 40), runner.copies, "each other sequence copies the prompt");
            assertEquals(40 + 1, generator.snapshot().prefillTokens(), "the blocker's token and one prompt");
            assertEquals(List.of(0, 40, 40, 40), results.stream().map(GenerationResult::cachedTokens).toList());
            for (int i = 0; i < four.size(); i++) {
                assertEquals(alone(four.get(i)).sequences(), results.get(i).sequences(), "request " + i);
            }
        }
    }

    @Test
    void aRequestAdmittedWhileTheLeaderGeneratesTakesItsPromptAtOnce() throws Exception {
        FakeModelRunner runner = new FakeModelRunner(VOCAB, 64, Generations::positional);
        int[] prompt = prompt(30, 4);
        GenerationRequest late = request(prompt, "team", greedy(3));
        CountDownLatch generating = new CountDownLatch(1);
        CountDownLatch released = new CountDownLatch(1);
        GenerationListener slowLeader = new GenerationListener() {
            @Override
            public void onDelta(GenerationDelta delta) {
                generating.countDown();
                try {
                    released.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        try (Generator generator = Generator.start(runner, new FakeTokenizer(), Generations.EOS,
                new GeneratorOptions(64, 64, 16, 16, 0))) {
            GenerationHandle leader = value(generator.submit(request(prompt, "team", greedy(6)), slowLeader));
            assertTrue(generating.await(5, TimeUnit.SECONDS), "the leader sampled its first token");
            GenerationHandle follower = value(generator.submit(late, GenerationListener.NONE));
            released.countDown();
            GenerationResult result = follower.result().get(10, TimeUnit.SECONDS);
            leader.result().get(10, TimeUnit.SECONDS);
            assertEquals(30, result.cachedTokens());
            assertEquals(List.of(30), runner.copies, "the prompt copied from the running leader");
            assertEquals(30, generator.snapshot().prefillTokens(), "only the leader forwarded the prompt");
            assertEquals(alone(late).sequences(), result.sequences());
        }
    }

    @Test
    void otherPromptsScopesAndPromptLogprobsDoNotFollow() throws Exception {
        FakeModelRunner runner = gated();
        int[] prompt = prompt(20, 0);
        int[] other = prompt(20, 1);
        try (Generator generator = gatedGenerator(runner, 64, 0)) {
            List<GenerationHandle> handles = piledUp(generator, List.of(request(prompt, "team", greedy(2)),
                    request(other, "team", greedy(2)), request(prompt, "rival", greedy(2)),
                    request(prompt, "team", params(b -> b.maxTokens(2).promptLogprobs(1)))));
            for (GenerationHandle h : handles) {
                assertEquals(0, h.result().get(10, TimeUnit.SECONDS).cachedTokens());
            }
            assertEquals(List.of(20, 20, 20, 20), runner.batches.get(1), "four prefills in one step");
            assertEquals(List.of(), runner.copies);
        }
    }

    @Test
    void aFollowerWhoseLeaderIsCancelledMidPrefillPrefillsOnItsOwn() throws Exception {
        // The leader prefills in chunks of 8; the model cancels it while its second chunk runs.
        AtomicReference<GenerationHandle> leader = new AtomicReference<>();
        FakeModelRunner runner = FakeModelRunner.gated(VOCAB, entered, gate, context -> {
            if (context.size() > 8 && context.size() <= 16 && leader.get() != null) {
                leader.get().cancel();
            }
            return Generations.positional(context);
        });
        int[] prompt = prompt(40, 2);
        GenerationRequest follower = request(prompt, "team", greedy(4));
        try (Generator generator = gatedGenerator(runner, 8, 0)) {
            value(generator.submit(request(new int[] {3}, "team", greedy(1)), GenerationListener.NONE));
            assertTrue(entered.await(5, TimeUnit.SECONDS));
            leader.set(value(generator.submit(request(prompt, "team", greedy(4)), GenerationListener.NONE)));
            GenerationHandle waiting = value(generator.submit(follower, GenerationListener.NONE));
            gate.countDown();
            GenerationResult cancelled = leader.get().result().get(10, TimeUnit.SECONDS);
            assertEquals(FinishReason.ABORT, cancelled.sequences().getFirst().finish().reason());
            GenerationResult result = waiting.result().get(10, TimeUnit.SECONDS);
            assertEquals(alone(follower).sequences(), result.sequences());
            assertEquals(0, result.cachedTokens());
            assertEquals(List.of(), runner.copies);
            assertEquals(List.of(8), runner.batches.get(1), "the leader's first chunk; the follower waits");
            assertEquals(List.of(8), runner.batches.get(3), "then the follower's own first chunk");
        }
    }

    @Test
    void aRepeatOnceTheFirstIsDoneRestoresFromTheCacheInstead() throws Exception {
        FakeModelRunner runner = new FakeModelRunner(VOCAB, 64, Generations::positional);
        int[] prompt = prompt(40, 5);
        try (Generator generator = Generator.start(runner, new FakeTokenizer(), Generations.EOS,
                new GeneratorOptions(64, 64, 16, 16, 1024))) {
            value(generator.generate(request(prompt, "team", greedy(1))));
            assertEquals(32, value(generator.generate(request(prompt, "team", greedy(2)))).cachedTokens(),
                    "alone, a repeat restores the cached blocks");
        }
    }
}
