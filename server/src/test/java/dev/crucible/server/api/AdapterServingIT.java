package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.tiny.TinyAdapter;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import dev.crucible.testsupport.concurrent.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Checkpoints above step 0 are served with their PEFT adapter, loaded on demand. */
class AdapterServingIT {

    @SuppressWarnings("unchecked")
    /** Writes adapter files, an I/O failure failing the test. */
    private static void write(AdapterWrite write) {
        try {
            write.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private interface AdapterWrite {
        void run() throws IOException;
    }

    private static List<Object> greedy(Api api, String model) {
        Api.Reply reply = api.post("/v1/chat/completions", RequestBodies.chat("Hello there", "model", model,
                "max_tokens", 6, "temperature", 0, "return_token_ids", true));
        assertEquals(200, reply.status(), reply.toString());
        return (List<Object>) reply.firstChoice().get("token_ids");
    }

    @Test
    void aCheckpointIsServedWithItsAdapterAndTheZeroAdapterEqualsTheBase() throws Exception {
        try (TestServer server = TestServer.start(Map.of("test.trainer", "instant"))) {
            Api api = server.api(server.newKey("rita"));
            String model = api.post("/v1/preview/models", RequestBodies.createModel("p", "lora")).text("id");
            for (int i = 0; i < 2; i++) {
                String job = api.post("/v1/preview/training-jobs", RequestBodies.rlJob(model)).text("id");
                Await.until(() -> api.get("/v1/preview/training-jobs/" + job).text("status"), "COMPLETED"::equals,
                        Duration.ofSeconds(20));
            }
            String address = "crucible:///rita/p/lora";
            assertEquals(501, api.post("/v1/chat/completions", Map.of("model", address + ":step1",
                    "messages", List.of(Map.of("role", "user", "content", "hi")))).status(), "no adapter files yet");

            ModelConfig base = ModelFolder.read(server.dataDir().resolve("models").resolve(TestServer.BASE_MODEL)).config();
            server.writeAdapter(model, 1, folder -> write(() -> TinyAdapter.writeRandom(base, folder, 11)));
            server.writeAdapter(model, 2, folder -> write(() -> TinyAdapter.writePeftInit(base, folder, 12)));

            List<Object> plain = greedy(api, TestServer.BASE_MODEL);
            List<Object> stepOne = greedy(api, address + ":step1");
            assertNotEquals(plain, stepOne, "a random adapter changes the greedy continuation");
            assertEquals(stepOne, greedy(api, address + ":v1"), "the same adapter, from the cache");
            assertEquals(plain, greedy(api, address), "the latest checkpoint holds PEFT's zero-initialised adapter");
        }
    }
}
