package dev.crucible.application.job;

import dev.crucible.application.dataset.DatasetContent;
import dev.crucible.domain.file.StoredFile;
import java.net.URI;
import java.nio.file.Path;

/** Where an SFT job's dataset is, once {@link TrainingDataPolicy} has accepted its {@code training_data_url}. */
public sealed interface TrainingDataLocation {

    /** The normalised {@code training_data_url} the job keeps. */
    default String url() {
        return switch (this) {
            case LocalFile local -> local.path().toUri().toString();
            case Web web -> web.uri().toString();
            case Uploaded uploaded -> uploaded.file().id().toString();
            case Snapshot snapshot -> snapshot.content().dataset().id().toString();
        };
    }

    /** A file inside the data directory, its real path checked. */
    record LocalFile(Path path) implements TrainingDataLocation {
    }

    /** An {@code http(s)} URL. */
    record Web(URI uri) implements TrainingDataLocation {
    }

    /** A file the job's entity uploaded with purpose {@code fine-tune}. */
    record Uploaded(StoredFile file) implements TrainingDataLocation {
    }

    /** One of the job's entity's {@code sft} datasets ({@code dataset-...}), its rows read lazily. */
    record Snapshot(DatasetContent content) implements TrainingDataLocation {
    }
}
