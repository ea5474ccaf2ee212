package dev.crucible.adapters.persistence.sql;

import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** JSON text for {@code jsonb} columns: plain maps, lists, strings, numbers and booleans in and out, or records. */
@Singleton
public final class Json {

    private final JsonMapper mapper;

    public Json(JsonMapper mapper) {
        this.mapper = mapper;
    }

    public String write(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write JSON column", e);
        }
    }

    public Map<String, Object> readObject(String text) {
        try {
            Map<String, Object> map = mapper.readValue(text, Argument.mapOf(String.class, Object.class));
            return map == null ? new LinkedHashMap<>() : map;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read JSON column", e);
        }
    }

    /** Reads {@code text} as {@code type}, a record the mapper can build (annotated or imported for serde). */
    public <T> T read(String text, Class<T> type) {
        try {
            return mapper.readValue(text, Argument.of(type));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read JSON column", e);
        }
    }

    public List<Object> readList(String text) {
        try {
            return mapper.readValue(text, Argument.listOf(Object.class));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read JSON column", e);
        }
    }

    /** Reads a {@code {"name": number}} object into doubles. */
    public Map<String, Double> readMetrics(String text) {
        Map<String, Double> metrics = new LinkedHashMap<>();
        readObject(text).forEach((k, v) -> {
            if (v instanceof Number n) {
                metrics.put(k, n.doubleValue());
            }
        });
        return metrics;
    }
}
