package dev.crucible.runtime.generation;

import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.engine.spi.SequenceLogits;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.config.RopeScaling;
import dev.crucible.testsupport.engine.TokenListCache;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A model whose logits are a pure function of the cache's contents (the last entry is the last token), checking the
 * SPI's argument rules like a real runner. Records each forward's batch for scheduling assertions.
 */
public class FakeModelRunner implements ModelRunner {

    final List<List<Integer>> batches = new ArrayList<>();
    public final List<TokenListCache> caches = new ArrayList<>();
    public final List<Integer> copies = new ArrayList<>();
    private final ModelConfig config;
    private final Function<List<Integer>, float[]> model;

    public FakeModelRunner(int vocab, int maxPositions, Function<List<Integer>, float[]> model) {
        this.config = new ModelConfig(Architecture.LLAMA, 8, 16, 1, 2, 1, 4, vocab, 1e-6, 1e4,
                new RopeScaling.Unscaled(), maxPositions, true, false, OptionalInt.empty(), List.of(),
                Optional.empty());
        this.model = model;
    }

    /** A model that puts logit 10 on {@code next(context)} and 0 elsewhere: greedy follows {@code next}. */
    static FakeModelRunner peaked(int vocab, Function<List<Integer>, Integer> next) {
        return new FakeModelRunner(vocab, 64, context -> {
            float[] logits = new float[vocab];
            logits[next.apply(context)] = 10;
            return logits;
        });
    }

    /**
     * {@code model}, but a forward first counts {@code entered} down and waits (up to 5 s) for {@code gate}, so
     * submissions pile up behind the first forward until the test opens the gate.
     */
    static FakeModelRunner gated(int vocab, CountDownLatch entered, CountDownLatch gate,
            Function<List<Integer>, float[]> model) {
        return new FakeModelRunner(vocab, 64, context -> {
            entered.countDown();
            try {
                gate.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return model.apply(context);
        });
    }

    @Override
    public ModelConfig config() {
        return config;
    }

    @Override
    public synchronized KvCache newCache(int capacityTokens) {
        if (capacityTokens < 1 || capacityTokens > config.maxPositionEmbeddings()) {
            throw new IllegalArgumentException("capacity " + capacityTokens);
        }
        TokenListCache cache = new TokenListCache(this, capacityTokens);
        caches.add(cache);
        return cache;
    }

    @Override
    public synchronized List<SequenceLogits> forward(List<SequenceInput> batch) {
        if (batch.isEmpty() || new HashSet<>(batch.stream().map(SequenceInput::cache).toList()).size() < batch.size()) {
            throw new IllegalArgumentException("empty batch or a cache twice");
        }
        for (SequenceInput input : batch) {
            if (!(input.cache() instanceof TokenListCache cache) || !cache.ownedBy(this) || cache.closed()
                    || input.length() > cache.remaining()) {
                throw new IllegalArgumentException("bad cache");
            }
            for (int id : input.tokenIds()) {
                if (id < 0 || id >= vocabSize()) {
                    throw new IllegalArgumentException("token " + id);
                }
            }
        }
        batches.add(batch.stream().map(SequenceInput::length).toList());
        return TokenListCache.forward(batch, model);
    }

    /** Copies the token list, checking the SPI's rules; records each copy's length in {@link #copies}. */
    @Override
    public synchronized void copyPrefix(KvCache from, KvCache to, int tokens) {
        if (!(from instanceof TokenListCache source) || !(to instanceof TokenListCache target) || !source.ownedBy(this)
                || !target.ownedBy(this) || source.closed() || target.closed() || source == target
                || target.length() != 0 || tokens < 1 || tokens > source.length() || tokens > target.capacity()) {
            throw new IllegalArgumentException("bad prefix copy");
        }
        target.tokens.addAll(source.tokens.subList(0, tokens));
        copies.add(tokens);
    }

    @Override
    public void close() {
    }
}
