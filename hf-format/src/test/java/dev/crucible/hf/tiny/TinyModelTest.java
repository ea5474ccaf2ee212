package dev.crucible.hf.tiny;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.config.GenerationConfigJson;
import dev.crucible.hf.config.ModelConfig;
import dev.crucible.hf.config.ModelConfigJson;
import dev.crucible.hf.config.RopeScaling;
import dev.crucible.hf.config.TokenizerConfig;
import dev.crucible.hf.config.TokenizerConfigJson;
import dev.crucible.hf.safetensors.DType;
import dev.crucible.hf.safetensors.SafetensorsReader;
import dev.crucible.hf.tokenizer.BpeEncoder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class TinyModelTest {

    private static final List<String> FILES = List.of("config.json", "generation_config.json", "model.safetensors",
            "tokenizer.json", "tokenizer_config.json");

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void writesTheHuggingFaceTensorNamesAndShapes(Architecture arch) throws IOException {
        TinyModel model = TinyModel.write(arch, dir, 0);
        Map<String, List<Long>> expected = TinyShapes.expected(arch);
        try (SafetensorsReader r = SafetensorsReader.open(dir)) {
            assertEquals(expected.keySet(), r.names());
            r.tensors().forEach(t -> {
                assertEquals(expected.get(t.name()), t.shape(), t.name());
                assertEquals(DType.F32, t.dtype(), t.name());
            });
            assertEquals(Map.of("format", "pt"), r.metadata());
            assertEquals(model.parameters(), r.tensors().stream().mapToLong(t -> t.elementCount()).sum());
        }
        assertEquals(Files.size(dir.resolve("model.safetensors")), model.bytes());
        try (var files = Files.list(dir)) {
            assertEquals(FILES, files.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void writesAConfigTheReaderAcceptsWithTokenIdsOfItsTokenizer(Architecture arch) throws IOException {
        TinyModel model = TinyModel.write(arch, dir, 0);
        ModelConfig c = ModelConfigJson.read(dir);
        assertEquals(model.config(), c);
        BpeEncoder tokenizer = BpeEncoder.load(dir.resolve("tokenizer.json"));
        assertEquals(0, c.vocabSize() % 64);
        assertTrue(c.vocabSize() >= tokenizer.size() && c.vocabSize() - tokenizer.size() < 64);
        var generation = GenerationConfigJson.read(dir);
        TokenizerConfig tc = TokenizerConfigJson.read(dir);
        String eos = tc.eosToken().orElseThrow();
        assertEquals(tokenizer.encode(eos, false)[0], c.eosTokenIds().getLast());
        assertTrue(generation.eosTokenIds().contains(c.eosTokenIds().getLast()));
        String template = tc.chatTemplate().orElseThrow();
        switch (arch) {
            case QWEN2 -> assertTrue(template.contains("<|im_start|>") && template.contains("<tool_call>"));
            case QWEN3 -> assertTrue(template.contains("<|im_start|>") && template.contains("<think>")
                    && template.contains("enable_thinking"));
            case LLAMA -> assertTrue(template.contains("<|start_header_id|>") && template.contains("bos_token"));
        }
        assertEquals(arch == Architecture.LLAMA ? new RopeScaling.Llama3(8, 1, 4, 8192) : new RopeScaling.Unscaled(),
                c.ropeScaling());
        assertEquals(arch != Architecture.LLAMA, c.tieWordEmbeddings());
        assertEquals(arch == Architecture.QWEN3 ? 32 : 16, c.headDim());
    }

    @Test
    void theSameSeedGivesTheSameBytesAndAnotherSeedOtherWeights() throws IOException {
        for (Architecture arch : Architecture.values()) {
            Path a = dir.resolve(arch + "-a");
            Path b = dir.resolve(arch + "-b");
            Path c = dir.resolve(arch + "-c");
            TinyModel.write(arch, a, 42);
            TinyModel.write(arch, b, 42);
            TinyModel.write(arch, c, 43);
            for (String file : FILES) {
                assertEquals(-1, Files.mismatch(a.resolve(file), b.resolve(file)), arch + " " + file);
                assertEquals(file.equals("model.safetensors"), Files.mismatch(a.resolve(file), c.resolve(file)) >= 0,
                        arch + " " + file);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Architecture.class)
    void drawsWeightsAtTheDocumentedScale(Architecture arch) throws IOException {
        TinyModel.write(arch, dir, 5);
        int used = BpeEncoder.load(dir.resolve("tokenizer.json")).size();
        try (SafetensorsReader r = SafetensorsReader.open(dir)) {
            assertEquals(1 / Math.sqrt(64), std(r.floats("model.layers.0.mlp.up_proj.weight")), 0.01);
            assertEquals(1 / Math.sqrt(128), std(r.floats("model.layers.1.mlp.down_proj.weight")), 0.01);
            float[] embed = r.floats("model.embed_tokens.weight");
            assertEquals(TinyWeights.EMBEDDING_STD, std(Arrays.copyOf(embed, used * 64)), 0.005);
            assertArrayEquals(new float[embed.length - used * 64],
                    Arrays.copyOfRange(embed, used * 64, embed.length), "padding rows are zero");
            assertEquals(TinyWeights.FINAL_NORM_SCALE, mean(r.floats("model.norm.weight")), 0.5);
            assertEquals(1.0, mean(r.floats("model.layers.0.input_layernorm.weight")), 0.05);
            assertFalse(r.contains("model.layers.0.self_attn.o_proj.bias"));
        }
    }

    private static double mean(float[] v) {
        double s = 0;
        for (float x : v) {
            s += x;
        }
        return s / v.length;
    }

    private static double std(float[] v) {
        double m = mean(v);
        double s = 0;
        for (float x : v) {
            s += (x - m) * (x - m);
        }
        return Math.sqrt(s / v.length);
    }
}
