package dev.crucible.domain.reading;

import dev.crucible.domain.refusal.Refusal;
import dev.crucible.domain.refusal.Outcome;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Typed reads from a JSON-shaped map ({@code String}, {@code Number}, {@code Boolean}, {@code List}, {@code Map},
 * null) where a missing key or {@code null} means "use the default". A wrong type or value stops the read with
 * a {@link Refusal} naming {@code <prefix>.<key>}.
 */
public final class ConfigReader {

    private final Map<String, Object> values;
    private final String prefix;

    public ConfigReader(Map<String, Object> values, String prefix) {
        this.values = Objects.requireNonNull(values, "values");
        this.prefix = Objects.requireNonNull(prefix, "prefix");
    }

    /** Thrown inside a read and turned into a refusal by {@link #read}; never escapes it. */
    public static final class Invalid extends RuntimeException {
        private final transient Refusal refusal;

        Invalid(Refusal refusal) {
            super(refusal.message(), null, false, false);
            this.refusal = refusal;
        }
    }

    /** A reader body that may stop at the first invalid value. */
    @FunctionalInterface
    public interface Body<T> {
        T read(ConfigReader reader);
    }

    /** Runs {@code body} over {@code values}, returning its value or the first refusal it raised. */
    public static <T> Outcome<T> read(Map<String, Object> values, String prefix, Body<T> body) {
        try {
            return Outcome.done(body.read(new ConfigReader(values, prefix)));
        } catch (Invalid invalid) {
            return Outcome.refused(invalid.refusal);
        }
    }

    public String param(String key) {
        return prefix.isEmpty() ? key : prefix + "." + key;
    }

    /** Stops the read with an invalid-value refusal for {@code key}. */
    public Invalid reject(String key, String problem) {
        return new Invalid(Refusal.invalid(param(key), param(key) + " " + problem));
    }

    public boolean present(String key) {
        return values.get(key) != null;
    }

    public Double number(String key, Double fallback) {
        Object v = values.get(key);
        if (v == null) {
            return fallback;
        }
        if (!(v instanceof Number n) || !Double.isFinite(n.doubleValue())) {
            throw reject(key, "must be a number, got " + describe(v));
        }
        return n.doubleValue();
    }

    public Double number(String key, Double fallback, double min, double max) {
        Double v = number(key, fallback);
        if (v != null && (v < min || v > max)) {
            throw reject(key, "must be between " + min + " and " + max + ", got " + v);
        }
        return v;
    }

    public Double positive(String key, Double fallback) {
        Double v = number(key, fallback);
        if (v != null && v <= 0) {
            throw reject(key, "must be > 0, got " + v);
        }
        return v;
    }

    public Integer integer(String key, Integer fallback, int min) {
        Object v = values.get(key);
        if (v == null) {
            return fallback;
        }
        if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())
                || Math.abs(n.doubleValue()) > Integer.MAX_VALUE) {
            throw reject(key, "must be an integer, got " + describe(v));
        }
        if (n.intValue() < min) {
            throw reject(key, "must be >= " + min + ", got " + n.intValue());
        }
        return n.intValue();
    }

    public boolean bool(String key, boolean fallback) {
        Object v = values.get(key);
        if (v == null) {
            return fallback;
        }
        if (!(v instanceof Boolean b)) {
            throw reject(key, "must be a boolean, got " + describe(v));
        }
        return b;
    }

    public String string(String key, String fallback) {
        Object v = values.get(key);
        if (v == null) {
            return fallback;
        }
        if (!(v instanceof String s)) {
            throw reject(key, "must be a string, got " + describe(v));
        }
        return s;
    }

    public String oneOf(String key, String fallback, Set<String> allowed) {
        String v = string(key, fallback);
        if (v != null && !allowed.contains(v)) {
            throw reject(key, "must be one of " + allowed.stream().sorted().toList() + ", got '" + v + "'");
        }
        return v;
    }

    public Object raw(String key) {
        return values.get(key);
    }

    /** A short description of a JSON value's type for messages. */
    public static String describe(Object v) {
        return switch (v) {
            case null -> "null";
            case String s -> "a string";
            case Boolean b -> "a boolean";
            case Number n -> "the number " + n;
            case List<?> l -> "an array";
            case Map<?, ?> m -> "an object";
            default -> v.getClass().getSimpleName();
        };
    }
}
