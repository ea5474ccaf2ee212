package dev.crucible.application.inference.serving;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.fakes.FakeLoraAdapter;
import dev.crucible.application.health.HealthService;
import dev.crucible.application.model.SchedulingPolicy;
import dev.crucible.domain.model.ModelId;
import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.engine.spi.SequenceLogits;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.config.GenerationConfig;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.config.RopeScaling;
import dev.crucible.runtime.generation.GenerationHandle;
import dev.crucible.runtime.generation.GenerationListener;
import dev.crucible.runtime.generation.GenerationRequest;
import dev.crucible.runtime.generation.Generator;
import dev.crucible.runtime.generation.GeneratorOptions;
import dev.crucible.runtime.generation.RequestOwner;
import dev.crucible.runtime.generation.sampling.SamplingParams;
import dev.crucible.runtime.generation.stopping.EndOfSequence;
import dev.crucible.testsupport.concurrent.Await;
import dev.crucible.testsupport.tokenizer.ByteTokenizer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A model whose engine fails step after step stops serving; health says so, and the supervisor reloads it in place
 * (dropping the adapters of its old runner), trying again when a reload fails.
 */
class ModelSupervisorTest {

    private static final int VOCAB = 4;
    private static final ModelConfig CONFIG = new ModelConfig(Architecture.LLAMA, 8, 16, 1, 2, 1, 4, VOCAB, 1e-6,
            1e4, new RopeScaling.Unscaled(), 64, true, false, OptionalInt.empty(), List.of(), Optional.empty());

    private final List<ServedModel> made = new ArrayList<>();
    private final AtomicInteger failedReloads = new AtomicInteger();
    private ServedModels models;

    /** A runner that prefers token 1 and, when {@code broken}, throws an {@link InternalError} on every forward. */
    private record Runner(boolean broken) implements ModelRunner {

        @Override
        public ModelConfig config() {
            return CONFIG;
        }

        @Override
        public KvCache newCache(int capacityTokens) {
            return new KvCache() {
                private int length;

                @Override
                public int capacity() {
                    return capacityTokens;
                }

                @Override
                public int length() {
                    return length;
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        public List<SequenceLogits> forward(List<SequenceInput> batch) {
            if (broken) {
                throw new InternalError("scripted: broken engine");
            }
            return batch.stream().map(i -> new SequenceLogits(new float[] {0, 5, 0, 0}, List.of())).toList();
        }

        @Override
        public void copyPrefix(KvCache from, KvCache to, int tokens) {
            throw new UnsupportedOperationException("not needed here");
        }

        @Override
        public void close() {
        }
    }

    private ServedModel model(boolean broken) {
        Runner runner = new Runner(broken);
        ByteTokenizer tokenizer = new ByteTokenizer(List.of(ByteTokenizer.utf8("<eos>"), ByteTokenizer.utf8("a"),
                ByteTokenizer.utf8("b"), ByteTokenizer.utf8("c")), Set.of(0));
        Generator generator = Generator.start(runner, tokenizer, EndOfSequence.of(0, Set.of(0)),
                new GeneratorOptions(64, 16, 4));
        ServedModel model = new ServedModel("m", runner, tokenizer, Optional.empty(), Map.of(), List.of(0),
                GenerationConfig.NONE, 64, generator, Optional.empty(), TrainingRunner.serving(runner), "fake", CONFIG,
                SchedulingPolicy.FCFS);
        made.add(model);
        return model;
    }

    @AfterEach
    void close() {
        made.forEach(ServedModel::close);
    }

    private static GenerationHandle submit(ServedModel model) {
        SamplingParams params = value(SamplingParams.builder().temperature(0).maxTokens(2).build());
        return value(model.generator().submit(new GenerationRequest(new int[] {1, 2}, params, 0, null,
                Optional.empty(), new RequestOwner("e", "k")), GenerationListener.NONE));
    }

    /** Runs requests until the broken model's loop stops. */
    private static void breakDown(ServedModel model) {
        while (model.generator().failure().isEmpty()) {
            GenerationHandle handle = submit(model);
            assertThrows(CompletionException.class, () -> handle.result().join());
        }
    }

    private ServedModels served(ServedModel first) {
        models = new ServedModels(List.of(first), failed -> {
            if (failedReloads.getAndDecrement() > 0) {
                throw new IllegalStateException("scripted: the engine cannot load now");
            }
            return model(false);
        });
        return models;
    }

    @Test
    void reloadsAModelWhoseGenerationStoppedAndForgetsTheAdaptersOfItsOldRunner() {
        ServedModel broken = model(true);
        ServedModels served = served(broken);
        AdapterCache adapters = new AdapterCache(4);
        FakeLoraAdapter adapter = new FakeLoraAdapter();
        adapters.acquire("m", new AdapterSource(ModelId.random(), 1, Path.of("/adapter")), folder -> adapter).close();
        HealthService health = new HealthService(served);
        ModelSupervisor supervisor = new ModelSupervisor(served, adapters, Duration.ofHours(1));
        assertTrue(health.health().ok());

        breakDown(broken);

        assertTrue(Await.until(() -> !health.health().ok()));
        assertTrue(health.health().failedModels().get("m").contains("steps failed"), health.health().toString());
        assertThrows(IllegalStateException.class, () -> health.probe().probe());
        supervisor.checkOnce();

        ServedModel fresh = served.find("m").orElseThrow();
        assertNotSame(broken, fresh);
        assertTrue(health.health().ok());
        assertEquals(1, supervisor.restarts());
        assertTrue(adapter.closed(), "the old runner's adapter is dropped");
        assertEquals(0, adapters.size());
        assertEquals(2, submit(fresh).result().join().completionTokens(), "the reloaded model serves");
    }

    @Test
    void aFailedReloadKeepsTheOldModelAndIsTriedAgain() {
        ServedModel broken = model(true);
        ServedModels served = served(broken);
        failedReloads.set(1);
        ModelSupervisor supervisor = new ModelSupervisor(served, new AdapterCache(1), Duration.ofHours(1));
        breakDown(broken);

        supervisor.checkOnce();

        assertSame(broken, served.find("m").orElseThrow());
        assertFalse(served.failures().isEmpty());
        supervisor.checkOnce();
        assertTrue(served.failures().isEmpty());
        assertEquals(1, supervisor.restarts());
    }

    @Test
    void modelsWithoutAReloaderStayFailedAndSaySo() {
        ServedModel broken = model(true);
        ServedModels served = new ServedModels(List.of(broken));
        breakDown(broken);

        new ModelSupervisor(served, new AdapterCache(1), Duration.ofHours(1)).checkOnce();

        assertSame(broken, served.find("m").orElseThrow());
        assertEquals(Set.of("m"), served.failures().keySet());
    }
}
