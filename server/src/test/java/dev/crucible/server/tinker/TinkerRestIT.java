package dev.crucible.server.tinker;

import static dev.crucible.server.tinker.TinkerClient.forwardBackward;
import static dev.crucible.server.tinker.TinkerClient.optimStep;
import static dev.crucible.server.tinker.TinkerClient.teaching;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import net.jqwik.api.Arbitraries;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Tinker's REST side over HTTP after real saves on a tiny model: weights_info, training runs and their checkpoints,
 * the archive (a 302 to the PEFT download), deleting a checkpoint (and what that does to the Crucible checkpoint and
 * to serving), tenancy and bad input.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TinkerRestIT {

    private static final int[] TAUGHT = {11, 12, 13, 14, 15, 16};

    @AutoClose
    private final TestServer server = TestServer.start(Map.of("crucible.primitives.max-runs-per-entity", 8));
    private final String key = server.newKey("rita");
    private final TinkerClient tinker = new TinkerClient(server, key);
    private final TinkerClient other = new TinkerClient(server, server.newKey("olga"));

    /** A run trained one step with weights/w1 (step 1), sampler_weights/s1 (step 2) and weights/w2 (step 3). */
    private String savedRun() {
        String model = tinker.createModel(TestServer.BASE_MODEL, 4);
        int seq = 0;
        tinker.await(tinker.submit("forward_backward", forwardBackward(model, ++seq, "cross_entropy",
                List.of(teaching(TAUGHT)))));
        tinker.await(tinker.submit("optim_step", optimStep(model, ++seq, 0.05)));
        save(model, "save_weights", "w1", ++seq);
        save(model, "save_weights_for_sampler", "s1", ++seq);
        save(model, "save_weights", "w2", ++seq);
        return model;
    }

    private void save(String model, String route, String name, int seq) {
        Map<String, Object> saved = tinker.await(tinker.submit(route, Map.of("model_id", model, "path", name,
                "seq_id", seq)));
        assertNotNull(saved.get("path"), saved.toString());
    }

    @Test
    void aRunItsCheckpointsAndTheirArchiveReadAsTheSdkExpects() throws IOException {
        String model = savedRun();
        Map<String, Object> info = tinker.post("weights_info", Map.of("tinker_path", "tinker://" + model
                + "/weights/w1")).json();
        assertEquals(Map.of("base_model", TestServer.BASE_MODEL, "is_lora", true, "lora_rank", 4, "train_unembed",
                false, "train_mlp", true, "train_attn", true), info);

        Map<String, Object> run = tinker.api().get("/api/v1/training_runs/" + model).json();
        assertEquals(model, run.get("training_run_id"));
        assertEquals(TestServer.BASE_MODEL, run.get("base_model"));
        assertEquals("rita", run.get("model_owner"));
        assertEquals(true, run.get("is_lora"));
        assertEquals(false, run.get("corrupted"));
        assertEquals(4, run.get("lora_rank"));
        assertNotNull(run.get("last_request_time"));
        assertEquals("weights/w2", ((Map<?, ?>) run.get("last_checkpoint")).get("checkpoint_id"));
        Map<?, ?> sampler = (Map<?, ?>) run.get("last_sampler_checkpoint");
        assertEquals("sampler_weights/s1", sampler.get("checkpoint_id"));
        assertEquals("sampler", sampler.get("checkpoint_type"));
        assertEquals("tinker://" + model + "/sampler_weights/s1", sampler.get("tinker_path"));
        assertTrue(((Number) sampler.get("size_bytes")).longValue() > 0, sampler.toString());
        assertEquals(false, sampler.get("public"));

        Api.Reply page = tinker.api().get("/api/v1/training_runs?limit=100&offset=0&access_scope=owned");
        assertEquals(200, page.status(), page.toString());
        assertTrue(ids(page).contains(model), page.toString());
        Map<?, ?> cursor = (Map<?, ?>) page.json().get("cursor");
        assertEquals(0, cursor.get("offset"));
        assertEquals(100, cursor.get("limit"));
        assertEquals(ids(page).size(), cursor.get("total_count"));

        assertEquals(List.of("weights/w1", "sampler_weights/s1", "weights/w2"), checkpointIds(model));
        Map<?, ?> first = checkpoints(model).getFirst();
        assertEquals("training", first.get("checkpoint_type"));
        assertNotNull(first.get("time"));

        Api.Reply archive = tinker.api().get("/api/v1/training_runs/" + model + "/checkpoints/sampler_weights/s1"
                + "/archive");
        assertEquals(302, archive.status(), archive.toString());
        assertNotNull(archive.headers().get("Expires"), archive.headers().toString());
        String location = URI.create(archive.headers().get("Location").getFirst()).getPath();
        assertEquals("/api/v1/checkpoint_archives/" + model + "/2", location);
        Api.Bytes zip = tinker.api().download(location);
        assertEquals(200, zip.status(), "the Tinker key opens the download");
        assertEquals(List.of("adapter_config.json", "adapter_model.safetensors"), entries(zip.body()));
        Api.Bytes crucible = server.api(key).download("/v1/preview/models/" + model + "/checkpoints/2/adapter");
        assertEquals(entries(crucible.body()), entries(zip.body()), "the same archive as Crucible's own download");
        assertEquals(200, server.api(key).download(location).status(), "a Bearer key opens it too");
        assertEquals(404, other.api().download(location).status(), "the download is the owner's alone");
        assertEquals(400, tinker.api().download("/api/v1/checkpoint_archives/x/2").status());
        assertEquals(400, tinker.api().download("/api/v1/checkpoint_archives/" + model + "/two").status());
        assertEquals(404, tinker.api().download("/api/v1/checkpoint_archives/" + model + "/9").status());
    }

    @Test
    void deletingACheckpointForgetsItAndStopsServingItUnlessItIsTheLatest() {
        String model = savedRun();
        String base = "/api/v1/training_runs/" + model + "/checkpoints/";
        assertEquals(200, chat(model, 2).status(), "the sampler checkpoint is served by name");

        assertEquals(204, tinker.api().delete(base + "sampler_weights/s1", null).status());
        assertEquals(List.of("weights/w1", "weights/w2"), checkpointIds(model));
        assertEquals(404, chat(model, 2).status(), "the deleted sampler checkpoint is no longer served");
        assertFalse(crucibleSteps(model).contains(2), "its Crucible checkpoint went with it");
        tinker.api().get(base + "sampler_weights/s1/archive").assertRefused(404, "checkpoint_id");
        tinker.post("weights_info", Map.of("tinker_path", "tinker://" + model + "/sampler_weights/s1"))
                .assertRefused(404, "tinker_path");
        tinker.api().delete(base + "sampler_weights/s1", null).assertRefused(404, "checkpoint_id");
        Map<?, ?> run = tinker.api().get("/api/v1/training_runs/" + model).json();
        assertFalse(run.containsKey("last_sampler_checkpoint"), run.toString());

        assertEquals(204, tinker.api().delete(base + "weights/w2", null).status());
        assertEquals(List.of("weights/w1"), checkpointIds(model));
        assertTrue(crucibleSteps(model).contains(3), "the model's latest checkpoint stays, as Crucible's rule says");
        assertEquals(200, chat(model, 3).status());
    }

    @Test
    void anotherEntitysRunAndCheckpointsAreNotFound() {
        String model = savedRun();
        String path = "tinker://" + model + "/weights/w1";
        other.post("weights_info", Map.of("tinker_path", path)).assertRefused(404, "tinker_path");
        other.api().get("/api/v1/training_runs/" + model).assertRefused(404, "training_run_id");
        other.api().get("/api/v1/training_runs/" + model + "/checkpoints").assertRefused(404, "training_run_id");
        other.api().get("/api/v1/training_runs/" + model + "/checkpoints/weights/w1/archive")
                .assertRefused(404, "training_run_id");
        other.api().delete("/api/v1/training_runs/" + model + "/checkpoints/weights/w1", null)
                .assertRefused(404, "training_run_id");
        assertFalse(ids(other.api().get("/api/v1/training_runs")).contains(model));
        assertEquals(List.of("weights/w1", "sampler_weights/s1", "weights/w2"), checkpointIds(model),
                "the other entity's delete changed nothing");
    }

    @Test
    void badPagingAndMalformedIdsAreRefusedNamingTheField() {
        for (String limit : List.of("0", "101", "-3", "abc", "99999999999")) {
            tinker.api().get("/api/v1/training_runs?limit=" + limit).assertRefused(400, "limit");
        }
        tinker.api().get("/api/v1/training_runs?offset=-1").assertRefused(400, "offset");
        tinker.api().get("/api/v1/training_runs?access_scope=everyone").assertRefused(400, "access_scope");
        tinker.post("weights_info", Map.of()).assertRefused(400, "tinker_path");
        for (String path : List.of("", "tinker://", "tinker://x/weights/w", "s3://a/weights/b",
                "tinker://00000000-0000-0000-0000-000000000000/weights", "tinker://00000000-0000-0000-0000-000000000000"
                        + "/other/w", "tinker://00000000-0000-0000-0000-000000000000/weights/a/b")) {
            tinker.post("weights_info", Map.of("tinker_path", path)).assertRefused(400, "tinker_path");
        }
        tinker.post("weights_info", Map.of("tinker_path", "tinker://00000000-0000-0000-0000-000000000000/weights/w"))
                .assertRefused(404, "tinker_path");
        tinker.api().get("/api/v1/training_runs/not-a-run").assertRefused(404, "training_run_id");
        String model = tinker.createModel(TestServer.BASE_MODEL, 4);
        tinker.api().delete("/api/v1/training_runs/" + model + "/checkpoints/optimizer/w1", null)
                .assertRefused(400, "checkpoint_id");
        tinker.api().get("/api/v1/training_runs/" + model + "/checkpoints/weights/none/archive")
                .assertRefused(404, "checkpoint_id");
    }

    @Test
    void generatedPathsAndIdsNeverMakeA5xx() {
        List<String> texts = new ArrayList<>(Arbitraries.strings().ofMaxLength(60).sampleStream().limit(150)
                .toList());
        texts.addAll(Arbitraries.strings().withChars("tinker:/-_.0123456789abcdefweightsampler").ofMaxLength(80)
                .sampleStream().limit(150).toList());
        for (String text : texts) {
            int info = tinker.post("weights_info", Map.of("tinker_path", "tinker://" + text)).status();
            assertTrue(info == 400 || info == 404, text + " -> " + info);
            String segment = URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
            int run = tinker.api().get("/api/v1/training_runs/" + segment + "/checkpoints").status();
            assertTrue(run == 400 || run == 404, text + " -> " + run);
            int limit = tinker.api().get("/api/v1/training_runs?limit=" + segment).status();
            assertTrue(limit == 200 || limit == 400, text + " -> " + limit);
        }
    }

    private Api.Reply chat(String model, int step) {
        return server.api(key).post("/v1/chat/completions", RequestBodies.chat("Hi", "model",
                "crucible:///rita/tinker/run-" + model + ":step" + step, "max_tokens", 2));
    }

    private List<Integer> crucibleSteps(String model) {
        Api.Reply page = server.api(key).get("/v1/preview/models/" + model + "/checkpoints?limit=100");
        assertEquals(200, page.status(), page.toString());
        return page.data().stream().map(c -> ((Number) c.get("step")).intValue()).toList();
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> checkpoints(String model) {
        Api.Reply reply = tinker.api().get("/api/v1/training_runs/" + model + "/checkpoints");
        assertEquals(200, reply.status(), reply.toString());
        return (List<Map<String, Object>>) reply.json().get("checkpoints");
    }

    private List<Object> checkpointIds(String model) {
        return checkpoints(model).stream().map(c -> c.get("checkpoint_id")).toList();
    }

    private static List<Object> ids(Api.Reply page) {
        assertEquals(200, page.status(), page.toString());
        return ((List<?>) page.json().get("training_runs")).stream().<Object>map(r -> ((Map<?, ?>) r).get("training_run_id"))
                .toList();
    }

    private static List<String> entries(byte[] zip) throws IOException {
        List<String> names = new ArrayList<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                names.add(e.getName());
            }
        }
        return names.stream().sorted().toList();
    }
}
