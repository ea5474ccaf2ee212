package dev.crucible.hf.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.crucible.hf.ModelFormatException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.function.Predicate;

/** Typed access to one JSON object of a config file; every failure names the file and the key. */
record JsonFields(JsonNode node, String where) {

    JsonFields {
        if (node == null || !node.isObject()) {
            throw new ModelFormatException(where + " must be a JSON object");
        }
    }

    /** True when the key is present with a non-null value. */
    boolean has(String key) {
        JsonNode v = node.get(key);
        return v != null && !v.isNull();
    }

    JsonNode get(String key) {
        return node.get(key);
    }

    int requiredInt(String key) {
        if (!has(key)) {
            throw error("missing required key '" + key + "'");
        }
        return toInt(key, node.get(key));
    }

    OptionalInt optionalInt(String key) {
        return has(key) ? OptionalInt.of(toInt(key, node.get(key))) : OptionalInt.empty();
    }

    OptionalDouble optionalDouble(String key) {
        return optional(key, JsonNode::isNumber, "a number", JsonNode::doubleValue)
                .map(OptionalDouble::of).orElse(OptionalDouble.empty());
    }

    Optional<Boolean> optionalBoolean(String key) {
        return optional(key, JsonNode::isBoolean, "true or false", JsonNode::booleanValue);
    }

    Optional<String> optionalString(String key) {
        return optional(key, JsonNode::isTextual, "a string", JsonNode::textValue);
    }

    /** A token id given as an integer or a list of integers; absent or null gives an empty list. */
    List<Integer> intOrIntList(String key) {
        if (!has(key)) {
            return List.of();
        }
        JsonNode v = node.get(key);
        if (!v.isArray()) {
            return List.of(toInt(key, v));
        }
        List<Integer> ids = new ArrayList<>();
        for (JsonNode e : v) {
            ids.add(toInt(key, e));
        }
        return List.copyOf(ids);
    }

    /** A nested object, or empty when the key is absent or null. */
    Optional<JsonFields> optionalObject(String key) {
        return has(key) ? Optional.of(new JsonFields(node.get(key), where + ": '" + key + "'")) : Optional.empty();
    }

    ModelFormatException error(String message) {
        return new ModelFormatException(where + ": " + message);
    }

    /** The value of {@code key} when present and not null; a value of another kind fails, naming {@code kind}. */
    private <T> Optional<T> optional(String key, Predicate<JsonNode> isKind, String kind, Function<JsonNode, T> value) {
        if (!has(key)) {
            return Optional.empty();
        }
        JsonNode v = node.get(key);
        if (!isKind.test(v)) {
            throw error("'" + key + "' must be " + kind + ", got " + v);
        }
        return Optional.of(value.apply(v));
    }

    private int toInt(String key, JsonNode v) {
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw error("'" + key + "' must be an integer, got " + v);
        }
        return v.intValue();
    }
}
