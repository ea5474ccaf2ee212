package dev.crucible.application.job;

import static dev.crucible.application.fakes.Fixtures.ACME;
import static dev.crucible.application.fakes.Fixtures.GLOBEX;
import static dev.crucible.application.fakes.Fixtures.NOW;
import static dev.crucible.application.fakes.OutcomeAssertions.assertRefused;
import static dev.crucible.application.fakes.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.fakes.InMemoryFileStore;
import dev.crucible.domain.common.Outcome;
import dev.crucible.domain.file.FileId;
import dev.crucible.domain.file.FilePurpose;
import dev.crucible.domain.file.StoredFile;
import dev.crucible.domain.common.Refusal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrainingDataPolicyTest {

    @TempDir
    Path root;

    private Path dataDir;
    private final InMemoryFileStore files = new InMemoryFileStore();
    private TrainingDataPolicy policy;

    @BeforeEach
    void createDataDirectory() throws IOException {
        dataDir = Files.createDirectory(root.resolve("data"));
        policy = new TrainingDataPolicy(dataDir, files);
    }

    private static String refusedMessage(Outcome<String> outcome) {
        return assertRefused(outcome, Refusal.Reason.INVALID, "training_data_url");
    }

    @Test
    void aFileInsideTheDataDirectoryIsAccepted() throws IOException {
        Path file = Files.writeString(Files.createDirectory(dataDir.resolve("sets")).resolve("train.jsonl"), "{}\n");
        assertEquals(file.toUri().toString(), value(policy.check(ACME, file.toUri().toString())));
    }

    @Test
    void aFileUrlIsNormalised() throws IOException {
        Path file = Files.writeString(dataDir.resolve("train.jsonl"), "{}\n");
        String roundabout = "file://" + dataDir + "/sets/../train.jsonl";
        assertEquals(file.toUri().toString(), value(policy.check(ACME, roundabout)));
    }

    @Test
    void aFileOutsideTheDataDirectoryIsRefused() throws IOException {
        Path outside = Files.writeString(root.resolve("secret.jsonl"), "{}\n");
        String message = refusedMessage(policy.check(ACME, outside.toUri().toString()));
        assertEquals("training_data_url must point inside the data directory " + dataDir + ", got " + outside, message);
    }

    @Test
    void aLinkInsideTheDataDirectoryCannotLeadOutside() throws IOException {
        Path outside = Files.writeString(root.resolve("secret.jsonl"), "{}\n");
        Path link = Files.createSymbolicLink(dataDir.resolve("innocent.jsonl"), outside);
        String message = refusedMessage(policy.check(ACME, link.toUri().toString()));
        assertTrue(message.contains("got a link to " + outside.toRealPath()), message);
    }

    @Test
    void dotDotCannotEscapeTheDataDirectory() throws IOException {
        Files.writeString(root.resolve("secret.jsonl"), "{}\n");
        String message = refusedMessage(policy.check(ACME, "file://" + dataDir + "/../secret.jsonl"));
        assertTrue(message.startsWith("training_data_url must point inside the data directory"), message);
    }

    @Test
    void aSiblingDirectorySharingTheNamePrefixIsOutside() throws IOException {
        Path sibling = Files.createDirectory(root.resolve("data-evil"));
        Path file = Files.writeString(sibling.resolve("x.jsonl"), "{}\n");
        assertTrue(refusedMessage(policy.check(ACME, file.toUri().toString())).contains("inside the data directory"));
    }

    @Test
    void aMissingFileIsRefused() {
        Path missing = dataDir.resolve("missing.jsonl");
        assertEquals("training_data_url file does not exist: " + missing,
                refusedMessage(policy.check(ACME, missing.toUri().toString())));
    }

    @Test
    void aDirectoryIsNotADataset() throws IOException {
        Path dir = Files.createDirectory(dataDir.resolve("sets"));
        assertEquals("training_data_url file does not exist: " + dir, refusedMessage(policy.check(ACME, dir.toUri().toString())));
    }

    @Test
    void anOpaqueFileUrlHasNoPath() {
        assertEquals("training_data_url has no path: file:train.jsonl", refusedMessage(policy.check(ACME, "file:train.jsonl")));
    }

    @Test
    void httpAndHttpsUrlsAreAcceptedAsGiven() {
        assertEquals("https://example.com/data/train.jsonl", value(policy.check(ACME, "https://example.com/data/train.jsonl")));
        assertEquals("http://example.com:8080/t.jsonl?x=1", value(policy.check(ACME, "http://example.com:8080/t.jsonl?x=1")));
        assertEquals("HTTPS://example.com/t.jsonl", value(policy.check(ACME, "HTTPS://example.com/t.jsonl")));
    }

    @Test
    void anHttpUrlWithoutHostIsRefused() {
        assertEquals("training_data_url has no host: http:///t.jsonl", refusedMessage(policy.check(ACME, "http:///t.jsonl")));
    }

    @Test
    void otherSchemesAreRefused() {
        assertEquals("training_data_url must be a file:// path inside the data directory, an http(s) URL or the id of an "
                + "uploaded file (file-...), got 's3://bucket/t.jsonl'", refusedMessage(policy.check(ACME, "s3://bucket/t.jsonl")));
        assertTrue(refusedMessage(policy.check(ACME, "ftp://example.com/t.jsonl")).contains("got 'ftp://example.com/t.jsonl'"));
    }

    @Test
    void aBarePathIsRefused() {
        assertTrue(refusedMessage(policy.check(ACME, "/etc/passwd")).contains("must be a file:// path"));
    }

    @Test
    void anUnparseableUrlIsRefused() {
        assertTrue(refusedMessage(policy.check(ACME, "http://exa mple.com/t.jsonl"))
                .startsWith("training_data_url is not a valid URL: "));
    }

    private StoredFile upload(dev.crucible.domain.tenancy.EntityName entity, FilePurpose purpose) {
        StoredFile file = new StoredFile(FileId.random(), entity, "train.jsonl", purpose, 10, NOW);
        files.insert(file);
        return file;
    }

    @Test
    void anUploadedFineTuneFileOfTheEntityIsAccepted() {
        StoredFile file = upload(ACME, FilePurpose.FINE_TUNE);
        assertEquals(file.id().toString(), value(policy.check(ACME, file.id().toString())));
        assertEquals(new TrainingDataLocation.Uploaded(file), value(policy.resolve(ACME, file.id().toString())));
    }

    @Test
    void anotherEntitysUploadIsNotFound() {
        StoredFile file = upload(GLOBEX, FilePurpose.FINE_TUNE);
        assertEquals("No such File object: " + file.id(), assertRefused(policy.check(ACME, file.id().toString()),
                Refusal.Reason.NOT_FOUND, "training_data_url"));
    }

    @Test
    void unknownAndMalformedFileIdsAreNotFound() {
        String unknown = FileId.random().toString();
        assertEquals("No such File object: " + unknown, assertRefused(policy.check(ACME, unknown),
                Refusal.Reason.NOT_FOUND, "training_data_url"));
        assertEquals("No such File object: file-abc", assertRefused(policy.check(ACME, "file-abc"),
                Refusal.Reason.NOT_FOUND, "training_data_url"));
    }

    @Test
    void anUploadWithAnotherPurposeIsRefused() {
        StoredFile file = upload(ACME, FilePurpose.BATCH);
        assertEquals("training_data_url " + file.id() + " was uploaded with purpose 'batch'; training data must be "
                + "uploaded with purpose 'fine-tune'", refusedMessage(policy.check(ACME, file.id().toString())));
    }
}
