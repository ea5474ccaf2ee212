package dev.crucible.server.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * A full data disk, filled to the last byte, under {@code crucible serve} on its embedded defaults (the data directory
 * and its PostgreSQL on a small tmpfs): uploads are a 507 that says the storage is full, never a 500;
 * {@code /v1/system-check} fails its storage check with the free space; once space is freed, writes succeed again
 * and nothing acknowledged was lost.
 */
class FullDiskIT {

    private static final String KEY = "full-disk-test-key-0123456789";
    private static final String PROJECT = "default/proj";

    @Test
    @SuppressWarnings("unchecked")
    void aFullDiskIsA507AndAFailedStorageCheckUntilSpaceIsFreed() throws Exception {
        Path mount = Files.createTempDirectory("crucible-full-disk-");
        Assumptions.assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=160m", "tmpfs", mount.toString()) == 0,
                "mounting a tmpfs is permitted here (root)");
        Path log = Files.createTempFile("crucible-full-disk-", ".log");
        Process server = null;
        try {
            Path dataDir = mount.resolve("data");
            ServeCommandIT.Serving serving = ServeCommandIT.start(Files.createDirectories(dataDir), log,
                    Map.of("CRUCIBLE_API_KEY", KEY));
            server = serving.process();
            int port = serving.port();
            Api api = new Api("http://127.0.0.1:" + port, KEY);
            assertEquals(true, ((Map<String, Object>) api.get("/v1/system-check").json().get("storage")).get("success"));

            Map<String, byte[]> uploaded = new LinkedHashMap<>();
            List<String> feedback = new ArrayList<>();
            upload(api, uploaded, 0);
            write(api, feedback, 0);

            Path filler = mount.resolve("filler");
            long filled = fillToTheLastByte(filler);
            assertTrue(filled > 0, "filled " + filled + " bytes");

            Api.Reply full = api.upload("/v1/files", Map.of("purpose", "fine-tune"), "full.txt", content(1, 20_000));
            assertEquals(507, full.status(), full.toString());
            assertEquals("insufficient_storage", full.error().get("type"));
            assertTrue(((String) full.error().get("message")).contains("storage is full"), full.toString());
            for (int i = 1; i <= 5; i++) {
                // PostgreSQL may still have room in its pages, or answer disk_full: 200 or 507, never a 500.
                Api.Reply reply = api.post("/feedback/create", feedback(i));
                assertTrue(reply.status() == 200 || reply.status() == 507 || reply.status() == 503, reply.toString());
                if (reply.status() == 200) {
                    feedback.add(reply.text("id"));
                }
            }

            Api.Reply check = api.get("/v1/system-check");
            assertEquals(503, check.status(), check.toString());
            Map<String, Object> storage = (Map<String, Object>) check.json().get("storage");
            assertEquals(false, storage.get("success"), storage.toString());
            assertTrue(((String) storage.get("error")).contains("bytes (0.0 MiB) free of"), storage.toString());

            Files.delete(filler);
            Await.until(() -> api.upload("/v1/files", Map.of("purpose", "fine-tune"), "again.txt", content(2, 100))
                    .status(), s -> s == 200, Duration.ofSeconds(60));
            for (int i = 10; i < 13; i++) {
                upload(api, uploaded, i);
                write(api, feedback, i);
            }
            Api.Reply healthy = api.get("/v1/system-check");
            assertEquals(true, ((Map<String, Object>) healthy.json().get("storage")).get("success"), healthy.toString());

            for (Map.Entry<String, byte[]> file : uploaded.entrySet()) {
                Api.Bytes bytes = api.download("/v1/files/" + file.getKey() + "/content");
                assertEquals(200, bytes.status(), "acknowledged upload " + file.getKey());
                assertArrayEquals(file.getValue(), bytes.body(), "acknowledged upload " + file.getKey());
            }
            for (String id : feedback) {
                Api.Reply found = api.post("/feedback/query", Map.of("project_id", PROJECT, "query",
                        Map.of("$expr", Map.of("$eq", List.of(Map.of("$getField", "id"), Map.of("$literal", id))))));
                assertEquals(1, ((List<?>) found.json().get("result")).size(), "acknowledged feedback " + id);
            }
            assertFalse(Files.readString(log).contains("failed with 500"), "no request failed with 500; log in " + log);
        } finally {
            if (server != null) {
                server.destroy();
                if (!server.waitFor(60, TimeUnit.SECONDS)) {
                    server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                }
            }
            Path pidFile = mount.resolve("data/postgres/postmaster.pid");
            if (Files.exists(pidFile)) {
                // A postmaster left behind by a failed run is the test's to end, before its disk goes away.
                ProcessHandle.of(Long.parseLong(Files.readAllLines(pidFile).getFirst().strip()))
                        .ifPresent(p -> {
                            p.destroyForcibly();
                            p.onExit().orTimeout(30, TimeUnit.SECONDS).join();
                        });
            }
            run("umount", "-l", mount.toString());
            Files.deleteIfExists(mount);
        }
    }

    private static void upload(Api api, Map<String, byte[]> uploaded, int n) {
        byte[] bytes = content(n, 10_000);
        Api.Reply reply = api.upload("/v1/files", Map.of("purpose", "fine-tune"), "f" + n + ".txt", bytes);
        assertEquals(200, reply.status(), reply.toString());
        uploaded.put(reply.text("id"), bytes);
    }

    private static void write(Api api, List<String> ids, int n) {
        Api.Reply reply = api.post("/feedback/create", feedback(n));
        assertEquals(200, reply.status(), reply.toString());
        ids.add(reply.text("id"));
    }

    private static Map<String, Object> feedback(long n) {
        return Map.of("project_id", PROJECT, "weave_ref", "weave:///default/proj/object/answer:abc123",
                "feedback_type", "custom", "payload", Map.of("n", n));
    }

    private static byte[] content(int n, int size) {
        String line = "{\"messages\": [{\"role\": \"user\", \"content\": \"line " + n + "\"}]}\n";
        return line.repeat(size / line.length() + 1).getBytes(StandardCharsets.UTF_8);
    }

    /** Writes {@code filler} until not one byte more fits: megabytes, then pages, then single bytes. */
    private static long fillToTheLastByte(Path filler) throws IOException {
        long written = 0;
        try (OutputStream out = Files.newOutputStream(filler)) {
            for (int chunk : new int[] {1 << 20, 4096, 1}) {
                byte[] bytes = new byte[chunk];
                try {
                    while (true) {
                        out.write(bytes);
                        out.flush();
                        written += chunk;
                    }
                } catch (IOException full) {
                    // this size no longer fits; try a smaller one
                }
            }
        } catch (IOException closing) {
            // closing a stream on a full disk may fail too; what was written stays
        }
        return written;
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return process.waitFor(60, TimeUnit.SECONDS) ? process.exitValue() : -1;
    }
}
