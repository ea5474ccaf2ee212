package dev.crucible.engine.onnx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.crucible.engine.spi.KvCache;
import dev.crucible.engine.spi.ModelRunner;
import dev.crucible.engine.spi.Precision;
import dev.crucible.engine.spi.SequenceInput;
import dev.crucible.hf.HfJson;
import dev.crucible.hf.config.Architecture;
import dev.crucible.hf.folder.ModelFolder;
import dev.crucible.hf.safetensors.DType;
import dev.crucible.hf.safetensors.SafetensorsReader;
import dev.crucible.hf.safetensors.SafetensorsWriter;
import dev.crucible.hf.safetensors.TensorInfo;
import dev.crucible.hf.tiny.TinyModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A model in BF16 safetensors shards, as large checkpoints come, is quantised while it is read (row by row from each
 * shard's file, {@code SafetensorsReader.readF32}) and its embedding stays BF16 and file-backed (a {@code Gather}
 * then a {@code Cast}); the logits are those of the same values written as one F32 file, which the engine reads the
 * way it always has (mapped F32 weights, F32 embedding), at every precision.
 */
class OnnxShardedBf16Test {

    private static final int[] PROMPT = {12, 345, 67, 89, 401, 5, 600, 233, 77, 150};

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Precision.class)
    void aShardedBf16ModelGivesTheLogitsOfTheSameValuesInOneF32File(Precision precision) throws IOException {
        TinyModel tiny = TinyModel.write(Architecture.QWEN2, dir.resolve("tiny"), 61);
        Path sharded = writeShardedBf16(tiny.dir(), dir.resolve("sharded"));
        Path single = writeSingleF32(sharded, dir.resolve("single"));
        float[][] fromShards = run(sharded, precision);
        float[][] fromOneFile = run(single, precision);
        for (int i = 0; i < fromShards.length; i++) {
            assertArrayEquals(fromOneFile[i], fromShards[i], 1e-5f, precision + " step " + i);
        }
    }

    /** The tiny model's tensors as BF16, split over two shards named by an index, as Hugging Face writes them. */
    private static Path writeShardedBf16(Path model, Path to) throws IOException {
        copyFolderFiles(model, to);
        ObjectNode weightMap = HfJson.object();
        try (SafetensorsReader reader = SafetensorsReader.open(model.resolve("model.safetensors"))) {
            List<TensorInfo> tensors = reader.tensors();
            SafetensorsWriter[] shards = {new SafetensorsWriter(), new SafetensorsWriter()};
            String[] names = {"model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"};
            for (int i = 0; i < tensors.size(); i++) {
                int shard = i < tensors.size() / 2 ? 0 : 1;
                TensorInfo t = tensors.get(i);
                shards[shard].add(t.name(), DType.BF16, t.dims(), reader.floats(t.name()));
                weightMap.put(t.name(), names[shard]);
            }
            for (int s = 0; s < 2; s++) {
                shards[s].write(to.resolve(names[s]));
            }
        }
        ObjectNode index = HfJson.object();
        index.set("weight_map", weightMap);
        Files.writeString(to.resolve(SafetensorsReader.INDEX_FILE), HfJson.pretty(index));
        assertEquals(2, Files.list(to).filter(p -> p.toString().endsWith(".safetensors")).count());
        return to;
    }

    /** The BF16 shards' values, widened, in one F32 file. */
    private static Path writeSingleF32(Path sharded, Path to) throws IOException {
        copyFolderFiles(sharded, to);
        SafetensorsWriter writer = new SafetensorsWriter();
        try (SafetensorsReader reader = SafetensorsReader.open(sharded)) {
            for (TensorInfo t : reader.tensors()) {
                writer.add(t.name(), DType.F32, t.dims(), reader.floats(t.name()));
            }
        }
        writer.write(to.resolve("model.safetensors"));
        return to;
    }

    private static void copyFolderFiles(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        for (String name : List.of("config.json", "tokenizer.json", "tokenizer_config.json", "generation_config.json")) {
            Files.copy(from.resolve(name), to.resolve(name));
        }
    }

    /** Logits after the prompt, then after each of three decode steps. */
    private static float[][] run(Path model, Precision precision) throws IOException {
        float[][] out = new float[4][];
        try (ModelRunner runner = new OnnxEngineProvider().loadModel(ModelFolder.read(model), precision);
                KvCache cache = runner.newCache(32)) {
            out[0] = runner.forward(List.of(SequenceInput.of(cache, PROMPT))).getFirst().last();
            for (int s = 1; s < 4; s++) {
                out[s] = runner.forward(List.of(SequenceInput.of(cache, 100 + s))).getFirst().last();
            }
        }
        return out;
    }
}
