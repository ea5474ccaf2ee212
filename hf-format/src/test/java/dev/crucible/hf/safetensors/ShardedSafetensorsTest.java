package dev.crucible.hf.safetensors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.hf.ModelFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShardedSafetensorsTest {

    private static final String SHARD1 = "model-00001-of-00002.safetensors";
    private static final String SHARD2 = "model-00002-of-00002.safetensors";

    @TempDir
    Path dir;

    @BeforeEach
    void writeShards() throws IOException {
        new SafetensorsWriter().add("a", DType.F32, new long[] {2}, new float[] {1f, 2f}).write(dir.resolve(SHARD1));
        new SafetensorsWriter().add("b", DType.BF16, new long[] {1, 2}, new float[] {3f, 4f})
                .add("c", DType.F16, new long[] {1}, new float[] {5f}).write(dir.resolve(SHARD2));
    }

    private void index(String weightMap) throws IOException {
        Files.writeString(dir.resolve(SafetensorsReader.INDEX_FILE),
                "{\"metadata\": {\"total_size\": 14}, \"weight_map\": {" + weightMap + "}}");
    }

    @Test
    void readsTheShardsAnIndexNames() throws IOException {
        index("\"a\": \"" + SHARD1 + "\", \"b\": \"" + SHARD2 + "\", \"c\": \"" + SHARD2 + "\"");
        for (Path path : new Path[] {dir, dir.resolve(SafetensorsReader.INDEX_FILE)}) {
            try (SafetensorsReader r = SafetensorsReader.open(path)) {
                assertEquals(Set.of("a", "b", "c"), r.names());
                assertArrayEquals(new float[] {1f, 2f}, r.floats("a"));
                assertArrayEquals(new float[] {3f, 4f}, r.floats("b"));
                assertArrayEquals(new float[] {5f}, r.floats("c"));
            }
        }
    }

    @Test
    void readsEveryFileOfAFolderWithoutAnIndex() throws IOException {
        try (SafetensorsReader r = SafetensorsReader.open(dir)) {
            assertEquals(Set.of("a", "b", "c"), r.names());
        }
    }

    @Test
    void refusesAnIndexThatDisagreesWithItsShards() throws IOException {
        index("\"a\": \"" + SHARD2 + "\"");
        assertFails("tensor 'a' is not in shard '" + SHARD2 + "'");
        index("\"a\": \"model-00003-of-00002.safetensors\"");
        assertFails("shard 'model-00003-of-00002.safetensors' is missing");
        index("\"a\": \"../" + SHARD1 + "\"");
        assertFails("must map to a file name in the same folder");
        index("");
        assertFails("'weight_map' must be a non-empty object");
    }

    @Test
    void refusesATensorStoredTwice() throws IOException {
        new SafetensorsWriter().add("a", DType.F32, new long[] {1}, new float[] {9f}).write(dir.resolve("x.safetensors"));
        assertFails("tensor 'a' is in both");
    }

    @Test
    void refusesAFolderWithoutWeights(@TempDir Path empty) {
        var e = assertThrows(ModelFormatException.class, () -> SafetensorsReader.open(empty));
        assertTrue(e.getMessage().startsWith("no *.safetensors file in"), e.getMessage());
    }

    private void assertFails(String message) {
        var e = assertThrows(ModelFormatException.class, () -> SafetensorsReader.open(dir).close());
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
