package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.crucible.application.blob.BlobCollector;
import dev.crucible.application.blob.BlobStore;
import dev.crucible.application.blob.ManifestName;
import dev.crucible.application.blob.StoredBlob;
import dev.crucible.application.job.SftDatasetLoader;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.domain.job.SftExample;
import dev.crucible.domain.tenancy.EntityName;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.slf4j.LoggerFactory;

/** The Files API over plain HTTP: tenancy, refusals in the envelope, listing, and files as SFT training data. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FilesIT {

    private static final int BODY_LIMIT = 64 * 1024;
    private static final String LINE = "{\"messages\": [{\"role\": \"user\", \"content\": \"2+2?\"}, "
            + "{\"role\": \"assistant\", \"content\": \"4\"}]}\n";
    @AutoClose
    private final TestServer server = TestServer.start(Map.of("crucible.max-body-bytes", BODY_LIMIT));
    private final Api dana = server.api(server.newKey("dana"));
    private final Api eve = server.api(server.newKey("eve"));

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private Map<String, Object> upload(Api api, String name, String purpose, String text) {
        Api.Reply reply = api.upload("/v1/files", Map.of("purpose", purpose), name, bytes(text));
        assertEquals(200, reply.status(), reply.toString());
        return reply.json();
    }

    private static void assertError(Api.Reply reply, int status, String param) {
        assertEquals(status, reply.status(), reply.toString());
        assertEquals(status, ((Number) reply.error().get("code")).intValue());
        assertEquals(param, reply.error().get("param"));
    }

    /** An upload's form parts are released once: a second release logged IllegalReferenceCountException. */
    @Test
    void uploadsReleaseTheirPartsOnceAndLogNoReferenceCountError() throws InterruptedException {
        Logger root = (Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME);
        ListAppender<ILoggingEvent> seen = new ListAppender<>();
        seen.start();
        root.addAppender(seen);
        try {
            upload(dana, "small.jsonl", "fine-tune", LINE);
            upload(dana, "large.jsonl", "fine-tune", (LINE + "\n").repeat(40 * 1024 / LINE.length()));
            assertEquals(200, dana.get("/v1/files").status());
            Thread.sleep(500); // the release runs on the event loop after the response is written
        } finally {
            root.detachAppender(seen);
        }
        List<String> refCountErrors = seen.list.stream().filter(e -> e.getThrowableProxy() != null
                && e.getThrowableProxy().getClassName().endsWith("IllegalReferenceCountException"))
                .map(ILoggingEvent::getFormattedMessage).toList();
        assertEquals(List.of(), refCountErrors);
    }

    @Test
    void anUploadAnswersOpenAisFileObjectAndKeepsTheBytesInTheBlobStore() {
        // bytes no other test uploads: equal uploads share one object, which stays while any of them is kept
        String line = LINE.replace("2+2?", "2+2? " + java.util.UUID.randomUUID());
        Map<String, Object> file = upload(dana, "train.jsonl", "fine-tune", line);
        String id = (String) file.get("id");
        assertTrue(id.matches("file-[0-9a-f]{32}"), id);
        assertEquals("file", file.get("object"));
        assertEquals(bytes(line).length, ((Number) file.get("bytes")).intValue());
        assertEquals("train.jsonl", file.get("filename"));
        assertEquals("fine-tune", file.get("purpose"));
        assertEquals("processed", file.get("status"));
        assertInstanceOf(Number.class, file.get("created_at"));
        assertEquals(file, dana.get("/v1/files/" + id).json());
        BlobStore blobs = server.bean(BlobStore.class);
        ManifestName manifest = new ManifestName("files/" + id);
        StoredBlob blob = blobs.manifest(manifest).orElseThrow().files().get("content");
        assertEquals(bytes(line).length, blob.size(), "the bytes are one object of the blob store");

        Api.Bytes content = dana.download("/v1/files/" + id + "/content");
        assertEquals(200, content.status());
        assertArrayEquals(bytes(line), content.body());

        Api.Reply deleted = dana.delete("/v1/files/" + id, null);
        assertEquals(Map.of("id", id, "object", "file", "deleted", true), deleted.json());
        assertEquals(Optional.empty(), blobs.manifest(manifest), "deleting a file removes its manifest");
        // no grace, as if the grace had passed (no other upload runs meanwhile)
        new BlobCollector(blobs, Duration.ZERO, Clock.offset(Clock.systemUTC(), Duration.ofSeconds(1))).collect();
        assertFalse(blobs.open(blob.digest()).isPresent(), "then collecting removes its bytes");
        assertError(dana.get("/v1/files/" + id), 404, "file_id");
    }

    @Test
    void anotherEntitysFileIsNotFoundAndNotListed() {
        String id = (String) upload(dana, "secret.jsonl", "fine-tune", LINE).get("id");
        assertError(eve.get("/v1/files/" + id), 404, "file_id");
        assertEquals(404, eve.download("/v1/files/" + id + "/content").status());
        assertError(eve.delete("/v1/files/" + id, null), 404, "file_id");
        assertFalse(eve.get("/v1/files").data().stream().anyMatch(f -> id.equals(f.get("id"))));
        assertEquals(200, dana.get("/v1/files/" + id).status(), "still there for its owner");
        assertError(dana.get("/v1/files/not-a-file-id"), 404, "file_id");
    }

    @Test
    void listsNewestFirstWithPurposeLimitAfterAndOrder() {
        Api frank = server.api(server.newKey("frank"));
        String a = (String) upload(frank, "a.jsonl", "fine-tune", LINE).get("id");
        String b = (String) upload(frank, "b.jsonl", "batch", LINE).get("id");
        String c = (String) upload(frank, "c.jsonl", "fine-tune", LINE).get("id");
        Api.Reply all = frank.get("/v1/files");
        assertEquals("list", all.json().get("object"));
        assertEquals(List.of(c, b, a), ids(all));
        assertEquals(false, all.json().get("has_more"));
        assertEquals(List.of(a, b, c), ids(frank.get("/v1/files?order=asc")));
        assertEquals(List.of(c, a), ids(frank.get("/v1/files?purpose=fine-tune")));
        Api.Reply first = frank.get("/v1/files?limit=2");
        assertEquals(List.of(c, b), ids(first));
        assertEquals(true, first.json().get("has_more"));
        assertEquals(b, first.json().get("last_id"));
        assertEquals(List.of(a), ids(frank.get("/v1/files?limit=2&after=" + b)));
        assertError(frank.get("/v1/files?limit=0"), 400, "limit");
        assertError(frank.get("/v1/files?order=up"), 400, "order");
        assertError(frank.get("/v1/files?purpose=training"), 400, "purpose");
        assertError(frank.get("/v1/files?after=nope"), 400, "after");
    }

    private static List<Object> ids(Api.Reply reply) {
        assertEquals(200, reply.status(), reply.toString());
        return reply.data().stream().map(f -> f.get("id")).toList();
    }

    @Test
    void badUploadsAreRefusedInTheEnvelope() {
        assertError(dana.upload("/v1/files", Map.of(), "t.jsonl", bytes(LINE)), 400, "purpose");
        assertError(dana.upload("/v1/files", Map.of("purpose", "training"), "t.jsonl", bytes(LINE)), 400, "purpose");
        assertError(dana.upload("/v1/files", Map.of("purpose", "fine-tune"), null, null), 400, "file");
        assertError(dana.upload("/v1/files", Map.of("purpose", "fine-tune"), "t.jsonl", new byte[0]), 400, "file");
        assertEquals(401, dana.withAuthorization(null).upload("/v1/files", Map.of("purpose", "fine-tune"), "t.jsonl",
                bytes(LINE)).status());
    }

    @Test
    void anUploadLargerThanTheBodyLimitIsA413() {
        Api.Reply reply = dana.upload("/v1/files", Map.of("purpose", "fine-tune"), "big.jsonl", new byte[BODY_LIMIT + 1]);
        assertEquals(413, reply.status(), reply.toString());
        assertEquals(413, ((Number) reply.error().get("code")).intValue());
        assertTrue(((String) reply.error().get("message")).contains("too large"), reply.toString());
    }

    @Test
    void anSftJobTakesAnUploadedFileIdOfItsOwnEntity() {
        String modelId = dana.post("/v1/preview/models", RequestBodies.createModel("files", "sft")).text("id");
        String id = (String) upload(dana, "train.jsonl", "fine-tune", LINE).get("id");
        Api.Reply created = dana.post("/v1/preview/sft-training-jobs", Map.of("model_id", modelId, "training_data_url", id));
        assertEquals(200, created.status(), created.toString());

        String evesModel = eve.post("/v1/preview/models", RequestBodies.createModel("files", "sft")).text("id");
        assertError(eve.post("/v1/preview/sft-training-jobs", Map.of("model_id", evesModel, "training_data_url", id)),
                404, "training_data_url");
        String batch = (String) upload(dana, "b.jsonl", "batch", LINE).get("id");
        assertError(dana.post("/v1/preview/sft-training-jobs", Map.of("model_id", modelId, "training_data_url", batch)),
                400, "training_data_url");
    }

    @Test
    void theDatasetLoaderReadsAnUploadedFile() {
        String id = (String) upload(dana, "train.jsonl", "fine-tune", LINE + "\n" + LINE).get("id");
        SftDatasetLoader loader = server.bean(SftDatasetLoader.class);
        var examples = assertInstanceOf(Outcome.Done.class, loader.load(new EntityName("dana"), id));
        assertEquals(List.of(1, 3), ((List<?>) examples.value()).stream().map(e -> ((SftExample) e).line()).toList());
        String bad = (String) upload(dana, "bad.jsonl", "fine-tune", LINE + "{\"messages\": []}\n").get("id");
        Refusal refusal = assertInstanceOf(Outcome.Refused.class, loader.load(new EntityName("dana"), bad)).refusal();
        assertEquals("training data line 2: messages must be a non-empty list", refusal.message());
        assertEquals("training_data_url", refusal.param());
        assertInstanceOf(Outcome.Refused.class, loader.load(new EntityName("eve"), id));
    }
}
