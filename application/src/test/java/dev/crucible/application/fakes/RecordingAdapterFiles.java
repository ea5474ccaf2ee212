package dev.crucible.application.fakes;

import java.nio.file.Path;
import java.util.Optional;
import dev.crucible.application.model.AdapterFiles;
import dev.crucible.domain.model.ModelId;
import java.util.ArrayList;
import java.util.List;

/** Records which adapter files were removed. */
public final class RecordingAdapterFiles implements AdapterFiles {

    /** One removed checkpoint adapter. */
    public record Step(ModelId model, int step) {
    }

    private final List<ModelId> deletedModels = new ArrayList<>();
    private final List<Step> deletedSteps = new ArrayList<>();

    @Override
    public synchronized void deleteModel(ModelId model) {
        deletedModels.add(model);
    }

    /** No checkpoint of this fake has adapter files. */
    @Override
    public Optional<Path> stepFolder(ModelId model, int step) {
        return Optional.empty();
    }

    /** This fake stores nothing; a trainer test that needs files uses a real folder. */
    @Override
    public void writeStep(ModelId model, int step, java.util.function.Consumer<Path> writer) {
        throw new UnsupportedOperationException("RecordingAdapterFiles stores no adapters");
    }

    @Override
    public synchronized void deleteStep(ModelId model, int step) {
        deletedSteps.add(new Step(model, step));
    }

    public synchronized List<ModelId> deletedModels() {
        return List.copyOf(deletedModels);
    }

    public synchronized List<Step> deletedSteps() {
        return List.copyOf(deletedSteps);
    }
}
