package dev.crucible.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.adapters.s3.S3BlobStore;
import dev.crucible.adapters.s3.S3ProxyServer;
import dev.crucible.application.blob.BlobStore;
import dev.crucible.application.blob.ManifestName;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Crucible with {@code --blob-store s3://…} on S3Proxy (a real S3 server on loopback, filesystem backend): a file
 * uploaded to one server trains an SFT job, the checkpoint answers chat there, and a second server on the same
 * database and bucket but an empty data directory serves the same checkpoint with the same tokens; nothing lands in
 * either data directory's blob folder. Deleting the model removes its manifests from the bucket.
 */
class S3BlobStoreIT {

    private static final String BUCKET = "crucible-it";
    private static final String LINE = "{\"messages\": [{\"role\": \"user\", \"content\": \"2+2?\"}, "
            + "{\"role\": \"assistant\", \"content\": \"4\"}]}\n";

    @RegisterExtension
    static final S3ProxyServer S3 = new S3ProxyServer(BUCKET);

    /** What {@code crucible serve --blob-store s3://crucible-it/cluster} reads, with S3Proxy's address. */
    private static Map<String, Object> onS3() {
        return BlobStoreOptions.properties("s3://" + BUCKET + "/cluster", Map.of(
                "CRUCIBLE_S3_ENDPOINT", S3.endpoint().toString(), "CRUCIBLE_S3_PATH_STYLE", "true"));
    }

    @Test
    void aFileUploadedTrainsACheckpointThatAnotherServerServesFromTheBucket() {
        try (TestServer first = TestServer.start(onS3())) {
            Api api = first.api(first.newKey("sam"));
            BlobStore blobs = first.bean(BlobStore.class);
            assertInstanceOf(S3BlobStore.class, blobs);

            Api.Reply file = api.upload("/v1/files", Map.of("purpose", "fine-tune"), "train.jsonl",
                    LINE.getBytes(StandardCharsets.UTF_8));
            assertEquals(200, file.status(), file.toString());
            String fileId = file.text("id");
            assertTrue(blobs.manifest(new ManifestName("files/" + fileId)).isPresent(), "the upload is in S3");

            String model = api.post("/v1/preview/models", RequestBodies.createModel("p", "s3")).text("id");
            Api.Reply job = api.post("/v1/preview/sft-training-jobs", Map.of("model_id", model,
                    "training_data_url", fileId));
            assertEquals(200, job.status(), job.toString());
            String status = Await.until(() -> api.get("/v1/preview/training-jobs/" + job.text("id")).text("status"),
                    s -> s.equals("COMPLETED") || s.equals("FAILED"), Duration.ofMinutes(3));
            assertEquals("COMPLETED", status);
            assertFalse(blobs.manifests("adapters/" + model + "/").isEmpty(), "the checkpoint is in S3");

            String address = "crucible:///sam/p/s3";
            List<Object> here = greedy(api, address);
            try (TestServer second = TestServer.start(first.databaseUrl(), TestServer.newDataDir(), onS3())) {
                Api other = second.api(second.newKey("sam"));
                assertEquals(here, greedy(other, address), "another server serves the same checkpoint");
                assertFalse(Files.exists(second.dataDir().resolve("blobs")), "its data directory holds no blobs");
            }
            assertFalse(Files.exists(first.dataDir().resolve("blobs")));

            assertEquals(200, api.delete("/v1/preview/models/" + model, null).status());
            assertEquals(List.of(), blobs.manifests("adapters/" + model + "/"), "deleting the model removes them");
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Object> greedy(Api api, String model) {
        Api.Reply reply = api.post("/v1/chat/completions", RequestBodies.chat("Hello there", "model", model,
                "max_tokens", 6, "temperature", 0, "return_token_ids", true));
        assertEquals(200, reply.status(), reply.toString());
        return (List<Object>) reply.firstChoice().get("token_ids");
    }
}
