package dev.crucible.adapters.http.inference;

import dev.crucible.kernel.refusal.RefusalException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * Typed reads of one JSON object of a chat request, each at its location for error messages; values are converted
 * by {@link LaxValues}. Absent and null fields read as empty.
 */
final class ChatFields {

    private final Map<String, Object> raw;
    private final List<Object> loc;

    ChatFields(Map<String, Object> raw, List<Object> loc) {
        this.raw = raw;
        this.loc = List.copyOf(loc);
    }

    Map<String, Object> raw() {
        return raw;
    }

    Object get(String key) {
        return raw.get(key);
    }

    boolean has(String key) {
        return raw.get(key) != null;
    }

    List<Object> loc(Object... more) {
        List<Object> out = new ArrayList<>(loc);
        out.addAll(List.of(more));
        return out;
    }

    RefusalException missing(String key) {
        return SchemaError.of(loc(key), "missing", "Field required", raw);
    }

    Optional<String> string(String key) {
        return read(key, LaxValues::asString);
    }

    Optional<Boolean> bool(String key) {
        return read(key, LaxValues::asBool);
    }

    boolean bool(String key, boolean fallback) {
        return bool(key).orElse(fallback);
    }

    Optional<Double> number(String key) {
        return read(key, LaxValues::asDouble);
    }

    Optional<BigInteger> bigInteger(String key) {
        return read(key, LaxValues::asInteger);
    }

    /** An integer of any size, saturated to the {@code long} range (only range checks care beyond it). */
    Optional<Long> integer(String key) {
        return bigInteger(key).map(LaxValues::saturate);
    }

    Optional<List<Object>> list(String key) {
        return read(key, (v, at) -> {
            if (v instanceof List<?> l) {
                @SuppressWarnings("unchecked")
                List<Object> list = (List<Object>) l;
                return list;
            }
            throw SchemaError.of(at, "list_type", "Input should be a valid list", v);
        });
    }

    Optional<Map<String, Object>> object(String key) {
        return read(key, LaxValues::asObject);
    }

    Optional<ChatFields> child(String key) {
        return object(key).map(m -> new ChatFields(m, loc(key)));
    }

    /** The elements of list {@code key} read one by one; empty when the list is absent. */
    <T> Optional<List<T>> elements(String key, BiFunction<Object, List<Object>, T> element) {
        return list(key).map(items -> {
            List<T> out = new ArrayList<>(items.size());
            for (int i = 0; i < items.size(); i++) {
                out.add(element.apply(items.get(i), loc(key, i)));
            }
            return out;
        });
    }

    private <T> Optional<T> read(String key, BiFunction<Object, List<Object>, T> as) {
        Object v = raw.get(key);
        return v == null ? Optional.empty() : Optional.of(as.apply(v, loc(key)));
    }
}
