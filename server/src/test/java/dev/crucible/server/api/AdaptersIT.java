package dev.crucible.server.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.domain.idempotency.IdempotencyKey;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.peft.LoraTarget;
import dev.crucible.hf.safetensors.DType;
import dev.crucible.hf.safetensors.SafetensorsWriter;
import dev.crucible.hf.tiny.TinyAdapter;
import dev.crucible.server.support.Api;
import dev.crucible.server.support.RequestBodies;
import dev.crucible.server.support.TestServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Adapters in and out: a checkpoint downloads as a PEFT folder in a zip, and a PEFT adapter uploaded to a model
 * becomes its next checkpoint, served by the model's name with the same logits as where it came from.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdaptersIT {

    private static final String ADAPTER_CONFIG = "adapter_config.json";
    private static final String ADAPTER_WEIGHTS = "adapter_model.safetensors";
    @AutoClose
    private final TestServer server = TestServer.start(Map.of("crucible.runner.enabled", false));
    private Api api;
    private ModelConfig base;

    @BeforeAll
    void start() throws IOException {
        api = server.api(server.newKey("ada"));
        base = ModelFolder.read(server.dataDir().resolve("models").resolve(TestServer.BASE_MODEL)).config();
    }

    private String newModel(String name) {
        Api.Reply created = api.post("/v1/preview/models", RequestBodies.createModel("p", name));
        assertEquals(200, created.status(), created.toString());
        return created.text("id");
    }

    private Api.Reply upload(Api caller, String modelId, byte[] zip) {
        return caller.upload("/v1/preview/models/" + modelId + "/checkpoints", Map.of(), "adapter", "adapter.zip", zip);
    }

    /** A zip of {@code files} (entry name to content), in order. */
    static byte[] zip(Map<String, byte[]> files) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            for (Map.Entry<String, byte[]> file : files.entrySet()) {
                zip.putNextEntry(new ZipEntry(file.getKey()));
                zip.write(file.getValue());
                zip.closeEntry();
            }
        }
        return out.toByteArray();
    }

    private static Map<String, byte[]> unzip(byte[] archive) throws IOException {
        Map<String, byte[]> files = new LinkedHashMap<>();
        try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(archive))) {
            for (ZipEntry e = zip.getNextEntry(); e != null; e = zip.getNextEntry()) {
                files.put(e.getName(), zip.readAllBytes());
            }
        }
        return files;
    }

    static Map<String, byte[]> folder(Path dir) throws IOException {
        return new LinkedHashMap<>(Map.of(ADAPTER_CONFIG, Files.readAllBytes(dir.resolve(ADAPTER_CONFIG)),
                ADAPTER_WEIGHTS, Files.readAllBytes(dir.resolve(ADAPTER_WEIGHTS))));
    }

    /** The greedy continuation's token ids and their logprobs, which tell two adapters apart. */
    @SuppressWarnings("unchecked")
    private List<Object> greedy(String model) {
        Api.Reply reply = api.post("/v1/chat/completions", RequestBodies.chat("Hello there", "model", model,
                "max_tokens", 5, "temperature", 0, "logprobs", true, "return_token_ids", true));
        assertEquals(200, reply.status(), reply.toString());
        Map<String, Object> choice = reply.firstChoice();
        List<Object> logprobs = ((List<Map<String, Object>>) ((Map<String, Object>) choice.get("logprobs"))
                .get("content")).stream().map(t -> t.get("logprob")).toList();
        return List.of(choice.get("token_ids"), logprobs);
    }

    @Test
    void anUploadedAdapterIsServedAndDownloadsToTheSameBytesAndLogits() throws IOException {
        Path made = Files.createTempDirectory("peft");
        TinyAdapter.writeRandom(base, made, 21);
        String x = newModel("imported");
        Api.Reply added = upload(api, x, zip(folder(made)));
        assertEquals(200, added.status(), added.toString());
        assertEquals(1, ((Number) added.json().get("step")).intValue());

        List<Object> plain = greedy(TestServer.BASE_MODEL);
        List<Object> imported = greedy("crucible:///ada/p/imported");
        assertNotEquals(plain, imported, "a random adapter changes the logits");
        assertEquals(imported, greedy("crucible:///ada/p/imported:step1"));

        Api.Bytes download = api.download("/v1/preview/models/" + x + "/checkpoints/1/adapter");
        assertEquals(200, download.status());
        assertEquals(List.of("application/zip"), download.headers().get("content-type"));
        assertTrue(download.headers().get("content-disposition").getFirst().contains("imported-step-1.zip"));
        Map<String, byte[]> files = unzip(download.body());
        assertEquals(List.of(ADAPTER_CONFIG, ADAPTER_WEIGHTS), List.copyOf(files.keySet()));
        assertArrayEquals(Files.readAllBytes(made.resolve(ADAPTER_WEIGHTS)), files.get(ADAPTER_WEIGHTS));

        String y = newModel("round-trip");
        assertEquals(200, upload(api, y, download.body()).status());
        assertEquals(imported, greedy("crucible:///ada/p/round-trip"), "same adapter, same logits");
    }

    /**
     * An adapter as PEFT 0.13.2's {@code save_pretrained} writes one for a causal LM: every key of its
     * {@code LoraConfig.to_dict()} in {@code adapter_config.json}, tensors named
     * {@code base_model.model.model.layers.N.<module>.lora_A.weight} in BF16 with torch's {@code format: pt}
     * metadata, a README beside them, all in the adapter's folder inside the archive.
     */
    @Test
    void anAdapterLaidOutAsPeftWritesOneLoads() throws IOException {
        int r = 4;
        String config = """
                {
                  "alpha_pattern": {}, "auto_mapping": null, "base_model_name_or_path": "Qwen/Qwen3-0.6B",
                  "bias": "none", "eva_config": null, "exclude_modules": null, "fan_in_fan_out": false,
                  "inference_mode": true, "init_lora_weights": true, "layer_replication": null,
                  "layers_pattern": null, "layers_to_transform": null, "loftq_config": {}, "lora_alpha": 8,
                  "lora_bias": false, "lora_dropout": 0.05, "megatron_config": null, "megatron_core": "megatron.core",
                  "modules_to_save": null, "peft_type": "LORA", "r": 4, "rank_pattern": {}, "revision": null,
                  "target_modules": ["v_proj", "q_proj"], "task_type": "CAUSAL_LM", "use_dora": false,
                  "use_rslora": false
                }
                """;
        SafetensorsWriter weights = new SafetensorsWriter().metadata("format", "pt");
        Random rng = new Random(5);
        for (int layer = 0; layer < base.numHiddenLayers(); layer++) {
            for (LoraTarget t : List.of(LoraTarget.Q_PROJ, LoraTarget.V_PROJ)) {
                weights.add(t.tensorName(layer, "A"), DType.BF16, new long[] {r, t.inFeatures(base)},
                        gaussian(rng, r * t.inFeatures(base), 0.3));
                weights.add(t.tensorName(layer, "B"), DType.BF16, new long[] {t.outFeatures(base), r},
                        gaussian(rng, t.outFeatures(base) * r, 0.3));
            }
        }
        Path file = Files.createTempFile("peft", ".safetensors");
        weights.write(file);
        assertTrue(LoraTarget.Q_PROJ.tensorName(0, "A").startsWith("base_model.model.model.layers.0.self_attn.q_proj"));
        Map<String, byte[]> archive = new LinkedHashMap<>();
        archive.put("qwen3-lora/README.md", "# Model Card\n".getBytes(StandardCharsets.UTF_8));
        archive.put("qwen3-lora/" + ADAPTER_CONFIG, config.getBytes(StandardCharsets.UTF_8));
        archive.put("qwen3-lora/" + ADAPTER_WEIGHTS, Files.readAllBytes(file));
        String model = newModel("peft-layout");
        Api.Reply added = upload(api, model, zip(archive));
        assertEquals(200, added.status(), added.toString());
        assertNotEquals(greedy(TestServer.BASE_MODEL), greedy("crucible:///ada/p/peft-layout"));
    }

    private static float[] gaussian(Random rng, int n, double std) {
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = (float) (std * rng.nextGaussian());
        }
        return values;
    }

    @Test
    void badArchivesAndAdaptersThatDoNotFitAre400sWithoutServerPaths() throws IOException {
        String model = newModel("refusals");
        assertRefused(upload(api, model, "not a zip".getBytes(StandardCharsets.UTF_8)), 400, "adapter");
        assertRefused(upload(api, model, zip(Map.of(ADAPTER_CONFIG, "{}".getBytes(StandardCharsets.UTF_8)))), 400,
                "adapter");
        Path made = Files.createTempDirectory("peft-misfit");
        TinyAdapter.writeRandom(base, made, 3);
        Map<String, byte[]> misfit = folder(made);
        misfit.put(ADAPTER_CONFIG, ("{\"peft_type\": \"LORA\", \"r\": 4, \"lora_alpha\": 8, \"target_modules\": "
                + "[\"q_proj\", \"k_proj\", \"v_proj\", \"o_proj\", \"gate_proj\", \"up_proj\", \"down_proj\"]}")
                .getBytes(StandardCharsets.UTF_8));
        Api.Reply wrongRank = upload(api, model, zip(misfit));
        assertRefused(wrongRank, 400, "adapter");
        assertTrue(wrongRank.error().get("message").toString().contains("shape"), wrongRank.toString());
        Map<String, byte[]> broken = folder(made);
        broken.put(ADAPTER_CONFIG, "{\"peft_type\": \"LORA\", \"r\": 8, \"use_dora\": true, \"target_modules\": [\"q_proj\"]}"
                .getBytes(StandardCharsets.UTF_8));
        Api.Reply dora = upload(api, model, zip(broken));
        assertRefused(dora, 400, "adapter");
        assertTrue(dora.error().get("message").toString().contains("use_dora"), dora.toString());
        assertEquals(List.of(0), steps(model), "nothing refused was kept");
    }

    /**
     * A zip bomb: a valid adapter whose {@code adapter_config.json} is padded with 16 MB of whitespace (valid JSON,
     * once accepted and read whole) deflates to about 16 KB; a README of 8 MB of zeros beside a valid adapter is
     * ignored but still inflated. Each is a 413 naming {@code adapter} and its setting, and nothing is kept.
     */
    @Test
    void anArchiveThatInflatesPastItsBoundsIs413NamingTheSetting() throws IOException {
        String model = newModel("bombed");
        Path made = Files.createTempDirectory("peft-bomb");
        TinyAdapter.writeRandom(base, made, 5);
        Map<String, byte[]> padded = folder(made);
        String config = Files.readString(made.resolve(ADAPTER_CONFIG));
        padded.put(ADAPTER_CONFIG, ("{" + " ".repeat(16 << 20) + config.substring(config.indexOf('{') + 1))
                .getBytes(StandardCharsets.UTF_8));
        byte[] bomb = zip(padded);
        Api.Reply refused = upload(api, model, bomb);
        assertRefused(refused, 413, "adapter");
        assertTrue(refused.error().get("message").toString().contains("crucible.adapters.max-config-bytes"),
                refused.toString());

        Map<String, byte[]> withReadme = new LinkedHashMap<>(folder(made));
        withReadme.put("README.md", new byte[8 << 20]);
        Api.Reply ratio = upload(api, model, zip(withReadme));
        assertRefused(ratio, 413, "adapter");
        assertTrue(ratio.error().get("message").toString().contains("crucible.adapters.max-unpack-ratio"),
                ratio.toString());
        assertEquals(List.of(0), steps(model), "nothing refused was kept");
        assertEquals(200, upload(api, model, zip(folder(made))).status(), "the same adapter without the padding");
    }

    @SuppressWarnings("unchecked")
    private List<Object> steps(String model) {
        return api.get("/v1/preview/models/" + model + "/checkpoints?order=asc").data().stream()
                .map(c -> (Object) ((Number) c.get("step")).intValue()).toList();
    }

    private void assertRefused(Api.Reply reply, int status, String param) {
        assertEquals(status, reply.status(), reply.toString());
        assertEquals(param, reply.error().get("param"), reply.toString());
        String message = reply.error().get("message").toString();
        assertFalse(message.contains(server.dataDir().toString()) || message.contains("/tmp")
                || message.contains("crucible-adapter"), message);
    }

    @Test
    void stepsWithoutAdaptersOtherTenantsAndBusyModelsAreRefused() throws IOException {
        String model = newModel("guarded");
        assertRefused(api.get("/v1/preview/models/" + model + "/checkpoints/0/adapter"), 404, "step");
        assertRefused(api.get("/v1/preview/models/" + model + "/checkpoints/7/adapter"), 404, "step");
        assertRefused(api.get("/v1/preview/models/" + model + "/checkpoints/x/adapter"), 400, "step");

        Path made = Files.createTempDirectory("peft");
        TinyAdapter.writeRandom(base, made, 8);
        byte[] archive = zip(folder(made));
        Api stranger = server.api(server.newKey("eve"));
        assertRefused(upload(stranger, model, archive), 404, "model_id");
        Api keyed = api.withHeader(IdempotencyKey.HEADER, UUID.randomUUID().toString());
        Api.Reply first = upload(keyed, model, archive);
        assertEquals(200, first.status(), first.toString());
        assertEquals(first.body(), upload(keyed, model, archive).body(), "a retry with the key adds nothing");
        assertEquals(List.of(0, 1), steps(model));
        assertRefused(stranger.get("/v1/preview/models/" + model + "/checkpoints/1/adapter"), 404, "model_id");

        assertEquals(200, api.post("/v1/preview/training-jobs", RequestBodies.rlJob(model)).status());
        assertRefused(upload(api, model, archive), 409, "model_id");
        assertEquals(List.of(0, 1), steps(model));
    }
}
