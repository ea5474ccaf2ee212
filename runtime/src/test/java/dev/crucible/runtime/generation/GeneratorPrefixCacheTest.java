package dev.crucible.runtime.generation;

import static dev.crucible.runtime.generation.FakeTokenizer.VOCAB;
import static dev.crucible.runtime.generation.Generations.params;
import static dev.crucible.runtime.generation.Generations.prompt;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.runtime.generation.prefix.PrefixCacheSnapshot;
import dev.crucible.runtime.generation.sampling.SamplingParams;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GeneratorPrefixCacheTest {



    private static GenerationRequest request(int[] prompt, String entity, Optional<String> salt, SamplingParams p) {
        return new GenerationRequest(prompt, p, 0, null, Optional.empty(), new RequestOwner(entity, "key"), salt);
    }

    private static GenerationRequest request(int[] prompt) {
        return request(prompt, "team", Optional.empty(), params(b -> b.maxTokens(5)));
    }

    private static Generator generator(FakeModelRunner runner, int prefixCacheTokens) {
        return Generator.start(runner, new FakeTokenizer(), Generations.EOS,
                new GeneratorOptions(96, 64, 8, 16, prefixCacheTokens));
    }

    @Test
    void aRepeatedPromptRestoresItsFullBlocksAndGeneratesTheSame() {
        FakeModelRunner runner = new FakeModelRunner(VOCAB, 96, Generations::positional);
        try (Generator generator = generator(runner, 1024)) {
            GenerationResult first = value(generator.generate(request(prompt(40, 0))));
            int forwards = runner.batches.size();
            GenerationResult second = value(generator.generate(request(prompt(40, 0))));
            assertEquals(0, first.cachedTokens());
            assertEquals(32, second.cachedTokens(), "two full blocks of 16; the third is partial");
            assertEquals(List.of(8), runner.batches.get(forwards), "only the tokens after the cached blocks");
            assertEquals(first.sequences().getFirst().tokenIds(), second.sequences().getFirst().tokenIds());
            assertEquals(80, generator.snapshot().prefixCache().queriedTokens());
            assertEquals(32, generator.snapshot().prefixCache().hitTokens());
            assertEquals(48, generator.snapshot().prefillTokens());
        }
    }

    @Test
    void aPromptOfWholeBlocksStillForwardsItsLastBlock() {
        FakeModelRunner runner = new FakeModelRunner(VOCAB, 96, Generations::positional);
        try (Generator generator = generator(runner, 1024)) {
            value(generator.generate(request(prompt(32, 0))));
            assertEquals(16, value(generator.generate(request(prompt(32, 0)))).cachedTokens());
        }
    }

    @Test
    void aSharedPrefixIsReusedUpToWhereThePromptsDiffer() {
        FakeModelRunner runner = new FakeModelRunner(VOCAB, 96, Generations::positional);
        try (Generator generator = generator(runner, 1024)) {
            int[] longer = prompt(60, 0);
            longer[40] = longer[40] == 1 ? 2 : 1;
            value(generator.generate(request(prompt(60, 0))));
            assertEquals(32, value(generator.generate(request(longer))).cachedTokens(),
                    "blocks 0 and 1 match, block 2 holds the changed token");
        }
    }

    @Test
    void anotherSaltOrEntityRestoresNothing() {
        FakeModelRunner runner = new FakeModelRunner(VOCAB, 96, Generations::positional);
        SamplingParams p = params(b -> b.maxTokens(2));
        int[] prompt = prompt(40, 3);
        try (Generator generator = generator(runner, 1024)) {
            assertEquals(0, value(generator.generate(request(prompt, "team", Optional.of("a"), p))).cachedTokens());
            assertEquals(0, value(generator.generate(request(prompt, "team", Optional.of("b"), p))).cachedTokens());
            assertEquals(0, value(generator.generate(request(prompt, "team", Optional.empty(), p))).cachedTokens());
            assertEquals(0, value(generator.generate(request(prompt, "rival", Optional.of("a"), p))).cachedTokens());
            assertEquals(32, value(generator.generate(request(prompt, "team", Optional.of("a"), p))).cachedTokens());
            assertEquals(32, value(generator.generate(request(prompt, "rival", Optional.of("a"), p))).cachedTokens());
        }
    }

    @Test
    void theNSequencesOfARequestShareOnePrefill() {
        FakeModelRunner runner = new FakeModelRunner(VOCAB, 96, Generations::positional);
        try (Generator generator = generator(runner, 0)) {
            GenerationResult result = value(generator.generate(request(prompt(40, 0), "team", Optional.empty(),
                    params(b -> b.temperature(0.9).seed(5).n(4).maxTokens(6).ignoreEos(true)))));
            assertEquals(List.of(40), runner.batches.getFirst(), "one prefill, of the first sequence only");
            assertEquals(List.of(1, 1, 1, 1), runner.batches.get(1));
            assertEquals(List.of(40, 40, 40), runner.copies);
            assertEquals(40, generator.snapshot().prefillTokens());
            assertEquals(List.of(6, 6, 6, 6), result.sequences().stream().map(s -> s.tokenIds().size()).toList());
            assertEquals(0, result.cachedTokens(), "the siblings' shared prompt is not a prefix-cache hit");
        }
    }

    @Test
    void siblingsSampleAsIfTheyHadPrefilledOnTheirOwn() {
        // siblings keeping only the likeliest token (top_k 1; greedy refuses n > 1) must follow the greedy path
        FakeModelRunner runner = new FakeModelRunner(VOCAB, 96, Generations::positional);
        try (Generator generator = generator(runner, 0)) {
            List<Integer> alone = value(generator.generate(request(prompt(20, 1), "team", Optional.empty(),
                    params(b -> b.maxTokens(6).ignoreEos(true))))).sequences().getFirst().tokenIds();
            GenerationResult four = value(generator.generate(request(prompt(20, 1), "team", Optional.empty(),
                    params(b -> b.temperature(1).topK(1).seed(2).n(4).maxTokens(6).ignoreEos(true)))));
            four.sequences().forEach(s -> assertEquals(alone, s.tokenIds(), "sequence " + s.index()));
        }
    }

    @Test
    void theLeastRecentlyUsedPrefixIsEvictedPastTheBudget() {
        FakeModelRunner runner = new FakeModelRunner(VOCAB, 96, Generations::positional);
        try (Generator generator = generator(runner, 48)) {
            value(generator.generate(request(prompt(33, 0))));
            value(generator.generate(request(prompt(33, 5))));
            PrefixCacheSnapshot cache = generator.snapshot().prefixCache();
            assertEquals(1, cache.evictions());
            assertEquals(32, cache.heldTokens());
            assertEquals(1, cache.heldPrefixes());
            assertEquals(0, value(generator.generate(request(prompt(33, 0)))).cachedTokens());
            assertEquals(48, generator.snapshot().prefixCache().budgetTokens());
        }
    }

    @Test
    void promptLogprobsNeedEveryPositionSoNothingIsRestored() {
        FakeModelRunner runner = new FakeModelRunner(VOCAB, 96, Generations::positional);
        try (Generator generator = generator(runner, 1024)) {
            value(generator.generate(request(prompt(40, 0))));
            GenerationResult withLogprobs = value(generator.generate(request(prompt(40, 0), "team", Optional.empty(),
                    params(b -> b.maxTokens(2).promptLogprobs(1)))));
            assertEquals(0, withLogprobs.cachedTokens());
            assertEquals(39, withLogprobs.promptLogprobs().orElseThrow().size());
        }
    }
}
