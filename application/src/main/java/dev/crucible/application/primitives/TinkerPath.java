package dev.crucible.application.primitives;

import dev.crucible.domain.model.ModelId;
import java.util.Optional;

/**
 * A saved state's address, {@code tinker://<run id>/<kind>/<name>} with kind {@code weights} (adapter and optimiser
 * state) or {@code sampler_weights} (an adapter to sample with): exactly three segments.
 */
public record TinkerPath(ModelId run, String kind, String name) {

    public static final String WEIGHTS = "weights";
    public static final String SAMPLER_WEIGHTS = "sampler_weights";
    private static final String SCHEME = "tinker://";

    /** The path {@code text} names; empty when it is not one of this form. */
    public static Optional<TinkerPath> parse(String text) {
        if (text == null || !text.startsWith(SCHEME)) {
            return Optional.empty();
        }
        String[] parts = text.substring(SCHEME.length()).split("/", -1);
        if (parts.length != 3 || parts[2].isEmpty() || !(parts[1].equals(WEIGHTS) || parts[1].equals(SAMPLER_WEIGHTS))) {
            return Optional.empty();
        }
        return RequestIds.parse(parts[0]).map(id -> new TinkerPath(new ModelId(id), parts[1], parts[2]));
    }

    @Override
    public String toString() {
        return SCHEME + run + "/" + kind + "/" + name;
    }
}
