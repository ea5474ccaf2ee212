package dev.crucible.hf.safetensors;

import com.fasterxml.jackson.databind.JsonNode;
import dev.crucible.hf.HfJson;
import dev.crucible.hf.ModelFormatException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/** Finds the safetensors files of a path (one file, a sharded index, or a folder) and maps them into an arena. */
record ShardSet(Map<String, MappedTensor> tensors, Map<String, String> metadata) {

    static final String INDEX_FILE = "model.safetensors.index.json";

    static ShardSet map(Path path, Arena arena) throws IOException {
        if (Files.isDirectory(path)) {
            Path index = path.resolve(INDEX_FILE);
            return Files.exists(index) ? fromIndex(index, arena) : fromFiles(folderFiles(path), arena);
        }
        if (!Files.exists(path)) {
            throw new ModelFormatException("no safetensors file at " + path);
        }
        return path.getFileName().toString().endsWith(".index.json") ? fromIndex(path, arena)
                : fromFiles(List.of(path), arena);
    }

    private static List<Path> folderFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> found = files.filter(p -> p.getFileName().toString().endsWith(".safetensors")).sorted().toList();
            if (found.isEmpty()) {
                throw new ModelFormatException("no *.safetensors file in " + dir);
            }
            return found;
        }
    }

    private static ShardSet fromIndex(Path index, Arena arena) throws IOException {
        String indexName = index.getFileName().toString();
        JsonNode weightMap = HfJson.read(index).get("weight_map");
        if (weightMap == null || !weightMap.isObject() || weightMap.isEmpty()) {
            throw new ModelFormatException(indexName + ": 'weight_map' must be a non-empty object");
        }
        Set<String> shardNames = new LinkedHashSet<>();
        for (Map.Entry<String, JsonNode> e : weightMap.properties()) {
            String shard = e.getValue().asText("");
            if (!e.getValue().isTextual() || shard.isEmpty() || shard.contains("/") || shard.contains("\\")
                    || shard.equals("..") || shard.equals(".")) {
                throw new ModelFormatException(indexName + ": tensor '" + e.getKey()
                        + "' must map to a file name in the same folder, got " + e.getValue());
            }
            shardNames.add(shard);
        }
        List<Path> shards = new ArrayList<>();
        for (String name : shardNames) {
            Path shard = index.resolveSibling(name);
            if (!Files.isRegularFile(shard)) {
                throw new ModelFormatException(indexName + ": shard '" + name + "' is missing");
            }
            shards.add(shard);
        }
        ShardSet set = fromFiles(shards, arena);
        for (Map.Entry<String, JsonNode> e : weightMap.properties()) {
            MappedTensor t = set.tensors.get(e.getKey());
            if (t == null || !t.file().equals(e.getValue().textValue())) {
                throw new ModelFormatException(indexName + ": tensor '" + e.getKey() + "' is not in shard '"
                        + e.getValue().textValue() + "'");
            }
        }
        return set;
    }

    private static ShardSet fromFiles(List<Path> files, Arena arena) throws IOException {
        Map<String, MappedTensor> tensors = new LinkedHashMap<>();
        Map<String, String> metadata = new LinkedHashMap<>();
        for (Path file : files) {
            String name = file.getFileName().toString();
            MemorySegment segment;
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
                segment = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size(), arena);
            }
            SafetensorsHeader header = SafetensorsHeader.parse(segment, name);
            header.metadata().forEach(metadata::putIfAbsent);
            for (TensorInfo info : header.tensors()) {
                MemorySegment raw = segment.asSlice(header.dataStart() + info.begin(), info.byteSize()).asReadOnly();
                MappedTensor previous = tensors.put(info.name(), new MappedTensor(info, raw, name,
                        new TensorLocation(file, header.dataStart() + info.begin(), info.byteSize())));
                if (previous != null) {
                    throw new ModelFormatException("tensor '" + info.name() + "' is in both " + previous.file()
                            + " and " + name);
                }
            }
        }
        return new ShardSet(Collections.unmodifiableMap(tensors), Map.copyOf(metadata));
    }
}
