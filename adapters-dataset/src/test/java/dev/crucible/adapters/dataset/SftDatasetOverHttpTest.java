package dev.crucible.adapters.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.crucible.application.file.FileContents;
import dev.crucible.application.file.FileStore;
import dev.crucible.application.job.SftDatasetLoader;
import dev.crucible.application.job.TrainingDataPolicy;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.file.FileId;
import dev.crucible.domain.file.FileListRequest;
import dev.crucible.domain.file.StoredFile;
import dev.crucible.application.job.dataset.SftDatasetLimits;
import dev.crucible.domain.job.SftExample;
import dev.crucible.domain.tenancy.EntityName;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dataset loader over a real local HTTP server, with the real downloads and JSON parser. */
class SftDatasetOverHttpTest {

    private static final String LINE = "{\"messages\": [{\"role\": \"user\", \"content\": \"2+2?\"}, "
            + "{\"role\": \"assistant\", \"content\": \"4\"}]}";
    private static final EntityName ACME = new EntityName("acme");
    private static final SftDatasetLimits LIMITS = new SftDatasetLimits(100, 1_000_000);

    /** No uploads in these tests. */
    private static final FileStore NO_FILES = new FileStore() {
        @Override
        public void insert(StoredFile file) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<Stored> insertWithin(StoredFile file, dev.crucible.application.file.FileQuota quota) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<StoredFile> find(EntityName entity, FileId id) {
            return Optional.empty();
        }

        @Override
        public List<StoredFile> fetchPage(EntityName entity, FileListRequest request, Optional<StoredFile> after) {
            return List.of();
        }

        @Override
        public boolean delete(EntityName entity, FileId id) {
            return false;
        }
    };

    /** No uploads in these tests. */
    private static final FileContents NO_CONTENTS = new FileContents() {
        @Override
        public OptionalLong write(FileId id, InputStream content, long maxBytes) {
            throw new UnsupportedOperationException();
        }

        @Override
        public InputStream open(FileId id) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void delete(FileId id) {
            throw new UnsupportedOperationException();
        }
    };

    @TempDir
    Path imports;

    private final LocalHttp http = new LocalHttp();

    @AfterEach
    void stop() {
        http.close();
    }

    private Outcome<List<SftExample>> load(String path, SftDatasetLimits limits) {
        SftDatasetLoader loader = new SftDatasetLoader(new TrainingDataPolicy(Optional.of(imports), imports.resolveSibling("server-data"), NO_FILES),
                NO_CONTENTS, new HttpTrainingDataDownloads(Duration.ofSeconds(2), Duration.ofSeconds(5), true),
                new JacksonJsonLines(), limits);
        return loader.load(ACME, http.uri(path).toString());
    }

    private static String refused(Outcome<?> outcome) {
        Refusal refusal = assertInstanceOf(Outcome.Refused.class, outcome).refusal();
        assertEquals(Refusal.Reason.INVALID, refusal.reason());
        assertEquals("training_data_url", refusal.param());
        return refusal.message();
    }

    @Test
    void loadsADatasetServedOverHttp() {
        http.on("/train.jsonl", ex -> LocalHttp.send(ex, 200, (LINE + "\n\n" + LINE + "\n").getBytes(StandardCharsets.UTF_8)));
        var examples = assertInstanceOf(Outcome.Done.class, load("/train.jsonl", LIMITS));
        assertEquals(List.of(1, 3), ((List<?>) examples.value()).stream().map(e -> ((SftExample) e).line()).toList());
    }

    @Test
    void badLinesAreNamedOverHttpToo() {
        http.on("/bad.jsonl", ex -> LocalHttp.send(ex, 200,
                (LINE + "\n{\"messages\": [{\"role\": \"assistant\", \"content\": 3}]}\n").getBytes(StandardCharsets.UTF_8)));
        assertEquals("training data line 2: messages[0].content must be a string or a list of text parts, got the number 3",
                refused(load("/bad.jsonl", LIMITS)));
    }

    @Test
    void httpFailuresAndOversizedBodiesAreRefused() {
        http.on("/missing.jsonl", ex -> LocalHttp.send(ex, 404, new byte[0]));
        http.on("/train.jsonl", ex -> LocalHttp.send(ex, 200, (LINE + "\n").getBytes(StandardCharsets.UTF_8)));
        assertEquals("training data could not be downloaded from " + http.uri("/missing.jsonl") + ": HTTP 404",
                refused(load("/missing.jsonl", LIMITS)));
        assertEquals("training data is larger than 10 bytes, the most one job may read",
                refused(load("/train.jsonl", new SftDatasetLimits(10, 10))));
    }
}
