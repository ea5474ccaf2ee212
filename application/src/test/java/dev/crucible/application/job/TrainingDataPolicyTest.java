package dev.crucible.application.job;

import static dev.crucible.application.fakes.Fixtures.ACME;
import static dev.crucible.application.fakes.Fixtures.GLOBEX;
import static dev.crucible.application.fakes.Fixtures.NOW;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertRefused;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.application.fakes.InMemoryFileStore;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.file.FileId;
import dev.crucible.domain.file.FilePurpose;
import dev.crucible.domain.file.StoredFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrainingDataPolicyTest {

    @TempDir
    Path root;

    private Path dataDir;
    private Path imports;
    private final InMemoryFileStore files = new InMemoryFileStore();
    private TrainingDataPolicy policy;
    private TrainingDataPolicy withImports;

    @BeforeEach
    void createDirectories() throws IOException {
        dataDir = Files.createDirectory(root.resolve("data"));
        imports = Files.createDirectory(root.resolve("imports"));
        policy = new TrainingDataPolicy(Optional.empty(), dataDir, files);
        withImports = new TrainingDataPolicy(Optional.of(imports), dataDir, files);
    }

    private static String refusedMessage(Outcome<String> outcome) {
        return assertRefused(outcome, Refusal.Reason.INVALID, "training_data_url");
    }

    @Test
    void withoutAnImportDirectoryEveryFileUrlIsRefusedWithoutAPath() throws IOException {
        Path inData = Files.writeString(dataDir.resolve("train.jsonl"), "{}\n");
        Path inImports = Files.writeString(imports.resolve("train.jsonl"), "{}\n");
        for (Path file : List.of(inData, inImports, dataDir.resolve("missing.jsonl"), Path.of("/etc/passwd"))) {
            assertEquals(TrainingDataPolicy.NO_FILE_URLS, refusedMessage(policy.check(ACME, file.toUri().toString())));
        }
    }

    @Test
    void aFileInTheImportDirectoryIsAcceptedAndNormalised() throws IOException {
        Path file = Files.writeString(Files.createDirectory(imports.resolve("sets")).resolve("train.jsonl"), "{}\n");
        assertEquals(file.toUri().toString(), value(withImports.check(ACME, file.toUri().toString())));
        assertEquals(file.toUri().toString(), value(withImports.check(ACME, "file://" + imports + "/x/../sets/train.jsonl")));
    }

    /** Outside, missing, a directory, a link out, {@code ..}: one message, no path, no hint of existence. */
    @Test
    void everythingElseIsOneRefusalThatNamesNoPath() throws IOException {
        Path secret = Files.writeString(dataDir.resolve("secret.jsonl"), "{}\n");
        Path link = Files.createSymbolicLink(imports.resolve("innocent.jsonl"), secret);
        Path sibling = Files.createDirectory(root.resolve("imports-evil"));
        Path siblingFile = Files.writeString(sibling.resolve("x.jsonl"), "{}\n");
        Files.createDirectory(imports.resolve("sets"));
        List<String> attempts = List.of(secret.toUri().toString(), link.toUri().toString(),
                "file://" + imports + "/../data/secret.jsonl", siblingFile.toUri().toString(),
                imports.resolve("missing.jsonl").toUri().toString(), imports.resolve("sets").toUri().toString(),
                "file:train.jsonl", "file:///etc/passwd");
        for (String url : attempts) {
            String message = refusedMessage(withImports.check(ACME, url));
            assertEquals(TrainingDataPolicy.NOT_IN_IMPORTS, message, url);
            assertFalse(message.contains(root.toString()), message);
        }
    }

    @Test
    void anImportDirectoryOverlappingTheDataDirectoryIsRefusedAtStart() {
        assertThrows(IllegalArgumentException.class,
                () -> new TrainingDataPolicy(Optional.of(dataDir.resolve("imports")), dataDir, files));
        assertThrows(IllegalArgumentException.class, () -> new TrainingDataPolicy(Optional.of(root), dataDir, files));
        assertThrows(IllegalArgumentException.class, () -> new TrainingDataPolicy(Optional.of(dataDir), dataDir, files));
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
        assertEquals("training_data_url must be the id of an uploaded file (file-...), a dataset (dataset-...) or an http(s) URL",
                refusedMessage(policy.check(ACME, "s3://bucket/t.jsonl")));
        assertTrue(refusedMessage(policy.check(ACME, "ftp://example.com/t.jsonl")).contains("http(s) URL"));
    }

    @Test
    void aBarePathIsRefused() {
        assertTrue(refusedMessage(withImports.check(ACME, "/etc/passwd")).contains("id of an uploaded file"));
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
