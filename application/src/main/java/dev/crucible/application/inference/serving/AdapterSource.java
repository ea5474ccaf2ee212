package dev.crucible.application.inference.serving;

import dev.crucible.domain.model.ModelId;
import dev.crucible.kernel.invariant.NonNull;
import java.nio.file.Path;

/**
 * Where a served adapter comes from: checkpoint {@code step} of trained model {@code model}, whose PEFT files lie in
 * {@code folder}. The checkpoint, not the folder, is what a removal names: the adapter store may keep equal adapters of
 * two checkpoints in one folder, named by their content rather than by the checkpoint.
 */
public record AdapterSource(ModelId model, int step, Path folder) {

    public AdapterSource {
        NonNull.components(AdapterSource.class, model, folder);
        if (step < 1) {
            throw new IllegalArgumentException("step must be at least 1 (step 0 is the zero adapter), got " + step);
        }
    }
}
