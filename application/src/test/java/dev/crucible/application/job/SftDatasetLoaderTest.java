package dev.crucible.application.job;

import static dev.crucible.application.fakes.Fixtures.ACME;
import static dev.crucible.application.fakes.Fixtures.GLOBEX;
import static dev.crucible.application.fakes.Fixtures.NOW;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crucible.application.fakes.InMemoryFileContents;
import dev.crucible.application.fakes.InMemoryFileStore;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.file.FileId;
import dev.crucible.domain.file.FilePurpose;
import dev.crucible.domain.file.StoredFile;
import dev.crucible.application.job.dataset.JsonLineParser;
import dev.crucible.application.job.dataset.SftDatasetLimits;
import dev.crucible.domain.job.SftExample;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SftDatasetLoaderTest {

    private static final String LINE = "{\"messages\": [{\"role\": \"user\", \"content\": \"2+2?\"}, "
            + "{\"role\": \"assistant\", \"content\": \"4\"}]}";
    private static final ObjectMapper MAPPER = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static final JsonLineParser PARSER = json -> {
        try {
            return MAPPER.readValue(json, Object.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e.getOriginalMessage(), e);
        }
    };

    /** Answers every download with {@link #answer} and records what was asked. */
    private static final class ScriptedDownloads implements TrainingDataDownloads {
        Download answer = new Failed("not scripted");
        final List<URI> asked = new ArrayList<>();
        final List<Long> bounds = new ArrayList<>();

        @Override
        public Download download(URI uri, long maxBytes) {
            asked.add(uri);
            bounds.add(maxBytes);
            return answer;
        }
    }

    @TempDir
    Path imports;

    private final InMemoryFileStore files = new InMemoryFileStore();
    private final InMemoryFileContents contents = new InMemoryFileContents();
    private final ScriptedDownloads web = new ScriptedDownloads();
    private SftDatasetLoader loader;

    @BeforeEach
    void setUp() {
        loader = loader(new SftDatasetLimits(10, 10_000));
    }

    private SftDatasetLoader loader(SftDatasetLimits limits) {
        return new SftDatasetLoader(new TrainingDataPolicy(Optional.of(imports), imports.resolveSibling("server-data"), files), contents, web, PARSER, limits);
    }

    private static String refused(Outcome<?> outcome) {
        return assertRefused(outcome, Refusal.Reason.INVALID, "training_data_url");
    }

    private String local(String text) throws IOException {
        return Files.writeString(imports.resolve("train.jsonl"), text).toUri().toString();
    }

    private StoredFile upload(dev.crucible.domain.tenancy.EntityName entity, FilePurpose purpose, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        StoredFile file = new StoredFile(FileId.random(), entity, "train.jsonl", purpose, bytes.length, NOW);
        contents.write(file.id(), new ByteArrayInputStream(bytes), 1_000_000);
        files.insert(file);
        return file;
    }

    @Test
    void loadsAFileInsideTheImportDirectory() throws IOException {
        List<SftExample> examples = value(loader.load(ACME, local(LINE + "\n\n" + LINE + "\n")));
        assertEquals(List.of(1, 3), examples.stream().map(SftExample::line).toList());
        assertEquals("4", examples.getFirst().messages().getLast().get("content"));
    }

    @Test
    void refusesBadDataNamingTheLine() throws IOException {
        assertEquals("training data line 2: the last message must be from the assistant, got role 'user'",
                refused(loader.load(ACME, local(LINE + "\n{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}\n"))));
        assertTrue(refused(loader.load(ACME, local(LINE + "\n" + LINE + "\n{oops\n")))
                .startsWith("training data line 3: not valid JSON: "));
    }

    @Test
    void aFileOutsideThePolicyIsRefusedAtLoadTimeToo() throws IOException {
        String url = local(LINE);
        Files.delete(imports.resolve("train.jsonl"));
        assertEquals(TrainingDataPolicy.NOT_IN_IMPORTS, refused(loader.load(ACME, url)));
        assertEquals(TrainingDataPolicy.NOT_IN_IMPORTS, refused(loader.load(ACME, "file:///etc/passwd")));
    }

    @Test
    void aFileOverTheByteBoundIsRefused() throws IOException {
        String url = local(LINE + "\n");
        int size = (int) Files.size(imports.resolve("train.jsonl"));
        assertEquals(1, value(loader(new SftDatasetLimits(10, size)).load(ACME, url)).size());
        assertEquals("training data is larger than " + (size - 1) + " bytes, the most one job may read",
                refused(loader(new SftDatasetLimits(10, size - 1)).load(ACME, url)));
    }

    @Test
    void moreExamplesThanTheLimitAreRefused() throws IOException {
        String url = local((LINE + "\n").repeat(3));
        assertEquals(3, value(loader(new SftDatasetLimits(3, 10_000)).load(ACME, url)).size());
        assertTrue(refused(loader(new SftDatasetLimits(2, 10_000)).load(ACME, url))
                .startsWith("training data has more than 2 examples"));
    }

    @Test
    void loadsAnUploadedFileOfTheEntity() {
        StoredFile file = upload(ACME, FilePurpose.FINE_TUNE, LINE + "\n" + LINE);
        assertEquals(2, value(loader.load(ACME, file.id().toString())).size());
    }

    @Test
    void anotherEntitysOrAMissingUploadIsInvalidDataForTheJob() {
        StoredFile file = upload(GLOBEX, FilePurpose.FINE_TUNE, LINE);
        assertEquals("No such File object: " + file.id(), refused(loader.load(ACME, file.id().toString())));
        String unknown = FileId.random().toString();
        assertEquals("No such File object: " + unknown, refused(loader.load(ACME, unknown)));
    }

    @Test
    void anUploadOverTheByteBoundIsRefusedBeforeReading() {
        StoredFile file = upload(ACME, FilePurpose.FINE_TUNE, LINE);
        assertEquals("training data is larger than 20 bytes, the most one job may read",
                refused(loader(new SftDatasetLimits(10, 20)).load(ACME, file.id().toString())));
    }

    @Test
    void anUploadedEmptyLookingDatasetIsRefused() {
        StoredFile file = upload(ACME, FilePurpose.FINE_TUNE, "\n\n  \n");
        assertEquals("training data is empty: it has no non-blank lines", refused(loader.load(ACME, file.id().toString())));
    }

    @Test
    void downloadsHttpDataWithTheByteBound() {
        web.answer = new TrainingDataDownloads.Body((LINE + "\n").getBytes(StandardCharsets.UTF_8));
        assertEquals(1, value(loader.load(ACME, "https://data.example.com/train.jsonl?v=2")).size());
        assertEquals(List.of(URI.create("https://data.example.com/train.jsonl?v=2")), web.asked);
        assertEquals(List.of(10_000L), web.bounds);
    }

    @Test
    void aFailedOrOversizedDownloadIsRefused() {
        web.answer = new TrainingDataDownloads.Failed("HTTP 404");
        assertEquals("training data could not be downloaded from http://data.example.com/t.jsonl: HTTP 404",
                refused(loader.load(ACME, "http://data.example.com/t.jsonl")));
        web.answer = new TrainingDataDownloads.TooLarge();
        assertEquals("training data is larger than 10000 bytes, the most one job may read",
                refused(loader.load(ACME, "http://data.example.com/t.jsonl")));
    }
}
