package dev.crucible.application.model;

import static dev.crucible.application.fakes.Fixtures.ACME;
import static dev.crucible.application.fakes.Fixtures.ACME_CALLER;
import static dev.crucible.application.fakes.Fixtures.CLOCK;
import static dev.crucible.application.fakes.Fixtures.GLOBEX_CALLER;
import static dev.crucible.application.fakes.Fixtures.NOW;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.fakes.Fixtures;
import dev.crucible.application.fakes.InMemoryCheckpointStore;
import dev.crucible.application.fakes.InMemoryJobStore;
import dev.crucible.application.fakes.InMemoryModelStore;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.job.JobSpec;
import dev.crucible.domain.job.JobType;
import dev.crucible.domain.job.RlConfig;
import dev.crucible.domain.job.TrainingJob;
import dev.crucible.domain.model.Checkpoint;
import dev.crucible.domain.model.CheckpointId;
import dev.crucible.domain.model.Model;
import dev.crucible.domain.model.ModelId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdapterServicesTest {

    @TempDir
    Path dir;

    /** Adapter folders in a temporary directory, one per model and step. */
    private final class FolderAdapterFiles implements AdapterFiles {
        final Map<String, Path> written = new HashMap<>();

        private Path path(ModelId model, int step) {
            return dir.resolve(model.value() + "-" + step);
        }

        @Override
        public void deleteModel(ModelId model) {
        }

        @Override
        public Optional<Path> stepFolder(ModelId model, int step) {
            return Optional.ofNullable(written.get(model.value() + "-" + step));
        }

        @Override
        public void writeStep(ModelId model, int step, Consumer<Path> writer) {
            try {
                Path folder = Files.createDirectories(path(model, step));
                writer.accept(folder);
                written.put(model.value() + "-" + step, folder);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void deleteStep(ModelId model, int step) {
        }
    }

    private final InMemoryCheckpointStore checkpoints = new InMemoryCheckpointStore();
    private final InMemoryModelStore models = new InMemoryModelStore(checkpoints);
    private final InMemoryJobStore jobs = new InMemoryJobStore();
    private final FolderAdapterFiles adapters = new FolderAdapterFiles();
    private Optional<String> problem = Optional.empty();
    private final ImportAdapterService importer = new ImportAdapterService(models, jobs, checkpoints, adapters,
            (base, folder) -> problem, 1000, CLOCK);
    private final ReadAdapterService reader = new ReadAdapterService(models, checkpoints, adapters);

    private Model model() {
        Model model = models.add(Fixtures.model(ACME, "agent-" + UUID.randomUUID(), 0));
        checkpoints.add(new Checkpoint(CheckpointId.random(), model.id(), 0, Map.of(), NOW));
        return model;
    }

    private Path upload(String weights) throws IOException {
        Path folder = Files.createTempDirectory(dir, "upload");
        Files.writeString(folder.resolve("adapter_config.json"), "{}");
        Files.writeString(folder.resolve("adapter_model.safetensors"), weights);
        return folder;
    }

    @Test
    void anImportPastTheEntitysCheckpointsIs413AndWritesNothing() throws IOException {
        ImportAdapterService bounded = new ImportAdapterService(models, jobs, checkpoints, adapters,
                (base, folder) -> problem, 1, CLOCK);
        Model model = model();
        value(bounded.importAdapter(new ImportAdapterUseCase.Command(ACME_CALLER, model.id(), upload("one"))));

        String message = assertRefused(bounded.importAdapter(new ImportAdapterUseCase.Command(ACME_CALLER, model.id(),
                upload("two"))), Refusal.Reason.TOO_LARGE, "adapter");

        assertTrue(message.contains("crucible.adapters.max-per-entity"), message);
        assertEquals(List.of(0, 1), checkpoints.of(model.id()).stream().map(Checkpoint::step).toList());
    }

    @Test
    void anImportedAdapterIsTheNextStepWithItsFilesAndReadsBack() throws IOException {
        Model model = model();
        Checkpoint first = value(importer.importAdapter(new ImportAdapterUseCase.Command(ACME_CALLER, model.id(),
                upload("one"))));
        Checkpoint second = value(importer.importAdapter(new ImportAdapterUseCase.Command(ACME_CALLER, model.id(),
                upload("two"))));
        assertEquals(List.of(1, 2), List.of(first.step(), second.step()));
        assertEquals(NOW, first.createdAt());
        ReadAdapterUseCase.Adapter read = value(reader.read(new ReadAdapterUseCase.Command(ACME_CALLER, model.id(), 2)));
        assertEquals("two", Files.readString(read.folder().resolve("adapter_model.safetensors")));
        assertEquals(model.coordinates().name() + "-step-2", read.name());
    }

    @Test
    void anAdapterThatDoesNotLoadIsRefusedAndNothingIsWritten() throws IOException {
        Model model = model();
        problem = Optional.of("tensor 'x' has shape [8, 4], expected [4, 4]");
        String message = assertRefused(importer.importAdapter(new ImportAdapterUseCase.Command(ACME_CALLER,
                model.id(), upload("w"))), Refusal.Reason.INVALID, "adapter");
        assertTrue(message.contains("tensor 'x' has shape") && message.contains(model.baseModel()), message);
        assertEquals(List.of(0), checkpoints.of(model.id()).stream().map(Checkpoint::step).toList());
        assertTrue(adapters.written.isEmpty());
    }

    @Test
    void aModelWithAJobInFlightIsAConflictAndAnotherEntitysModelIsNotFound() throws IOException {
        Model model = model();
        assertRefused(importer.importAdapter(new ImportAdapterUseCase.Command(GLOBEX_CALLER, model.id(), upload("w"))),
                Refusal.Reason.NOT_FOUND, "model_id");
        assertRefused(reader.read(new ReadAdapterUseCase.Command(GLOBEX_CALLER, model.id(), 0)),
                Refusal.Reason.NOT_FOUND, "model_id");
        jobs.enqueue(TrainingJob.queue(JobType.RL, model.id(), ACME, NOW), new JobSpec.Rl(List.of(Fixtures.group(1, 0)),
                RlConfig.defaults()));
        assertRefused(importer.importAdapter(new ImportAdapterUseCase.Command(ACME_CALLER, model.id(), upload("w"))),
                Refusal.Reason.CONFLICT, "model_id");
    }

    @Test
    void stepZeroAMissingStepAndAStepWithoutFilesHaveNoAdapter() {
        Model model = model();
        checkpoints.add(new Checkpoint(CheckpointId.random(), model.id(), 1, Map.of(), NOW));
        for (int step : new int[] {0, 1, 9}) {
            assertRefused(reader.read(new ReadAdapterUseCase.Command(ACME_CALLER, model.id(), step)),
                    Refusal.Reason.NOT_FOUND, "step");
        }
    }
}
