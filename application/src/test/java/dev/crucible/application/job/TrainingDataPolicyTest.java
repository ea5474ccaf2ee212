package dev.crucible.application.job;

import static dev.crucible.application.fakes.OutcomeAssertions.assertRefused;
import static dev.crucible.application.fakes.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.domain.common.Outcome;
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
    private TrainingDataPolicy policy;

    @BeforeEach
    void createDataDirectory() throws IOException {
        dataDir = Files.createDirectory(root.resolve("data"));
        policy = new TrainingDataPolicy(dataDir);
    }

    private static String refusedMessage(Outcome<String> outcome) {
        return assertRefused(outcome, Refusal.Reason.INVALID, "training_data_url");
    }

    @Test
    void aFileInsideTheDataDirectoryIsAccepted() throws IOException {
        Path file = Files.writeString(Files.createDirectory(dataDir.resolve("sets")).resolve("train.jsonl"), "{}\n");
        assertEquals(file.toUri().toString(), value(policy.check(file.toUri().toString())));
    }

    @Test
    void aFileUrlIsNormalised() throws IOException {
        Path file = Files.writeString(dataDir.resolve("train.jsonl"), "{}\n");
        String roundabout = "file://" + dataDir + "/sets/../train.jsonl";
        assertEquals(file.toUri().toString(), value(policy.check(roundabout)));
    }

    @Test
    void aFileOutsideTheDataDirectoryIsRefused() throws IOException {
        Path outside = Files.writeString(root.resolve("secret.jsonl"), "{}\n");
        String message = refusedMessage(policy.check(outside.toUri().toString()));
        assertEquals("training_data_url must point inside the data directory " + dataDir + ", got " + outside, message);
    }

    @Test
    void aLinkInsideTheDataDirectoryCannotLeadOutside() throws IOException {
        Path outside = Files.writeString(root.resolve("secret.jsonl"), "{}\n");
        Path link = Files.createSymbolicLink(dataDir.resolve("innocent.jsonl"), outside);
        String message = refusedMessage(policy.check(link.toUri().toString()));
        assertTrue(message.contains("got a link to " + outside.toRealPath()), message);
    }

    @Test
    void dotDotCannotEscapeTheDataDirectory() throws IOException {
        Files.writeString(root.resolve("secret.jsonl"), "{}\n");
        String message = refusedMessage(policy.check("file://" + dataDir + "/../secret.jsonl"));
        assertTrue(message.startsWith("training_data_url must point inside the data directory"), message);
    }

    @Test
    void aSiblingDirectorySharingTheNamePrefixIsOutside() throws IOException {
        Path sibling = Files.createDirectory(root.resolve("data-evil"));
        Path file = Files.writeString(sibling.resolve("x.jsonl"), "{}\n");
        assertTrue(refusedMessage(policy.check(file.toUri().toString())).contains("inside the data directory"));
    }

    @Test
    void aMissingFileIsRefused() {
        Path missing = dataDir.resolve("missing.jsonl");
        assertEquals("training_data_url file does not exist: " + missing,
                refusedMessage(policy.check(missing.toUri().toString())));
    }

    @Test
    void aDirectoryIsNotADataset() throws IOException {
        Path dir = Files.createDirectory(dataDir.resolve("sets"));
        assertEquals("training_data_url file does not exist: " + dir, refusedMessage(policy.check(dir.toUri().toString())));
    }

    @Test
    void anOpaqueFileUrlHasNoPath() {
        assertEquals("training_data_url has no path: file:train.jsonl", refusedMessage(policy.check("file:train.jsonl")));
    }

    @Test
    void httpAndHttpsUrlsAreAcceptedAsGiven() {
        assertEquals("https://example.com/data/train.jsonl", value(policy.check("https://example.com/data/train.jsonl")));
        assertEquals("http://example.com:8080/t.jsonl?x=1", value(policy.check("http://example.com:8080/t.jsonl?x=1")));
        assertEquals("HTTPS://example.com/t.jsonl", value(policy.check("HTTPS://example.com/t.jsonl")));
    }

    @Test
    void anHttpUrlWithoutHostIsRefused() {
        assertEquals("training_data_url has no host: http:///t.jsonl", refusedMessage(policy.check("http:///t.jsonl")));
    }

    @Test
    void otherSchemesAreRefused() {
        assertEquals("training_data_url must be a file:// path inside the data directory or an http(s) URL, got "
                + "'s3://bucket/t.jsonl'", refusedMessage(policy.check("s3://bucket/t.jsonl")));
        assertTrue(refusedMessage(policy.check("ftp://example.com/t.jsonl")).contains("got 'ftp://example.com/t.jsonl'"));
    }

    @Test
    void aBarePathIsRefused() {
        assertTrue(refusedMessage(policy.check("/etc/passwd")).contains("must be a file:// path"));
    }

    @Test
    void anUnparseableUrlIsRefused() {
        assertTrue(refusedMessage(policy.check("http://exa mple.com/t.jsonl"))
                .startsWith("training_data_url is not a valid URL: "));
    }
}
