package dev.crucible.application.primitives;

import static dev.crucible.application.primitives.InMemorySavedStates.ADA;
import static dev.crucible.application.primitives.InMemorySavedStates.BOB;
import static dev.crucible.application.primitives.InMemorySavedStates.T;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.model.AdapterFiles;
import dev.crucible.domain.model.ModelId;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Paging bounds, checkpoint views and path checks of the Tinker REST reads, over in-memory ports. */
class TrainingRunsServiceTest {

    private static final int MAX = 100;

    private final InMemorySavedStates store = new InMemorySavedStates();
    private final Path folder = folderOf(7, 5);
    private final TrainingRunsService service = new TrainingRunsService(store, new OneFolder(folder, 2), MAX);
    private final ModelId run = store.addRun(ADA.entity(), T);

    @Test
    void aLimitOutsideOneToTheMaximumIsRefusedNamingLimit() {
        for (int limit : IntStream.concat(IntStream.rangeClosed(-1000, 1000), IntStream.of(Integer.MIN_VALUE,
                Integer.MAX_VALUE)).toArray()) {
            Outcome<RunsPage> page = service.list(ADA, limit, 0);
            if (limit >= 1 && limit <= MAX) {
                RunsPage done = page.orElseThrow();
                assertEquals(1, done.totalCount());
                assertEquals(limit, done.limit());
            } else {
                assertEquals("limit", ((Outcome.Refused<RunsPage>) page).refusal().param(), "limit " + limit);
            }
        }
        assertEquals("offset", ((Outcome.Refused<RunsPage>) service.list(ADA, 10, -1)).refusal().param());
    }

    @Test
    void weightsInfoNeverAcceptsAPathItDidNotSave() {
        Random random = new Random(24);
        String alphabet = "tinker:/-_.0123456789abcdefweightsampler\u00e9\u0000 ";
        for (int i = 0; i < 2000; i++) {
            StringBuilder text = new StringBuilder(i % 2 == 0 ? "tinker://" : "");
            for (int n = random.nextInt(60); n > 0; n--) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            Refusal refusal = assertInstanceOf(Outcome.Refused.class, service.weightsInfo(ADA, text.toString()))
                    .refusal();
            assertEquals("tinker_path", refusal.param(), text.toString());
        }
    }

    @Test
    void checkpointsShowTheirKindTypeAndSizeAndTheRunItsNewestOfEach() {
        store.nameState(run, TinkerPath.WEIGHTS, "w1", 1, T.plusSeconds(1));
        store.nameState(run, TinkerPath.SAMPLER_WEIGHTS, "s1", 2, T.plusSeconds(2));
        store.nameState(run, TinkerPath.WEIGHTS, "w2", 3, T.plusSeconds(3));
        List<RunCheckpoint> checkpoints = service.checkpoints(ADA, run.toString()).orElseThrow();
        assertEquals(List.of("weights/w1", "sampler_weights/s1", "weights/w2"),
                checkpoints.stream().map(RunCheckpoint::checkpointId).toList());
        assertEquals(List.of("training", "sampler", "training"),
                checkpoints.stream().map(RunCheckpoint::checkpointType).toList());
        assertEquals(OptionalLong.of(12), checkpoints.get(1).sizeBytes(), "the bytes of the step's files");
        assertEquals(OptionalLong.empty(), checkpoints.get(0).sizeBytes(), "a step without files has no size");

        RunSummary summary = service.get(ADA, run.toString()).orElseThrow();
        assertEquals("weights/w2", summary.lastCheckpoint().orElseThrow().checkpointId());
        assertEquals("sampler_weights/s1", summary.lastSamplerCheckpoint().orElseThrow().checkpointId());
        assertEquals(T, summary.lastRequestTime(), "no operation yet: the run's creation");

        assertEquals(new TrainingRunsUseCase.ArchiveLocation(run, 2),
                service.archive(ADA, run.toString(), "sampler_weights", "s1").orElseThrow());
        assertEquals(store.runs.getFirst(), service.weightsInfo(ADA, "tinker://" + run + "/weights/w1").orElseThrow());
        assertEquals(Refusal.Reason.NOT_FOUND, ((Outcome.Refused<TrainingRun>) service.weightsInfo(BOB,
                "tinker://" + run + "/weights/w1")).refusal().reason(), "another entity's path");
        assertTrue(service.list(BOB, 10, 0).orElseThrow().runs().isEmpty());
    }

    private static Path folderOf(int... sizes) {
        try {
            Path dir = Files.createTempDirectory("runs-test-");
            dir.toFile().deleteOnExit(); // registered first, so deleted last, once empty
            for (int i = 0; i < sizes.length; i++) {
                Files.write(dir.resolve("f" + i), new byte[sizes[i]]).toFile().deleteOnExit();
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Adapter files where only checkpoint {@code step} (of any model) has a folder. */
    private record OneFolder(Path folder, int step) implements AdapterFiles {

        @Override
        public void deleteModel(ModelId model) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<Path> stepFolder(ModelId model, int asked) {
            return asked == step ? Optional.of(folder) : Optional.empty();
        }

        @Override
        public void writeStep(ModelId model, int asked, Consumer<Path> writer) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void deleteStep(ModelId model, int asked) {
            throw new UnsupportedOperationException();
        }
    }
}
