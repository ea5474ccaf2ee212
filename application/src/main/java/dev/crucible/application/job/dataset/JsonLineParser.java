package dev.crucible.application.job.dataset;

/**
 * Parses one JSON text into plain values; implemented outside the domain with a JSON library.
 *
 * <p>Implementations are stateless and thread-safe.
 */
@FunctionalInterface
public interface JsonLineParser {

    /**
     * Parses {@code json}, a whole JSON document with nothing after it.
     *
     * @return a {@code Map<String, Object>} in document order, a {@code List<Object>}, a {@code String}, a
     *         {@code Number}, a {@code Boolean}, or {@code null} for JSON {@code null}
     * @throws IllegalArgumentException when {@code json} is not one valid JSON document; the message says why in
     *         one line, without a line number (the caller adds its own)
     */
    Object parse(String json);
}
