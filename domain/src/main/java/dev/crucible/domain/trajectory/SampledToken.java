package dev.crucible.domain.trajectory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * One entry of a sampled choice's {@code logprobs.content}, the parts the trainer reads to find the sampled token and
 * its log-probability.
 *
 * @param token   the token as the sampler wrote it ({@code token_id:N} with vLLM's {@code return_tokens_as_token_ids}),
 *                or null when absent
 * @param logprob its log-probability, or null when absent
 * @param bytes   its UTF-8 bytes (each 0 to 255), empty when absent
 */
public record SampledToken(String token, Double logprob, List<Integer> bytes) {

    private static final String TOKEN_ID = "token_id:";

    public SampledToken {
        bytes = List.copyOf(Objects.requireNonNull(bytes, "bytes"));
        for (int b : bytes) {
            if (b < 0 || b > 255) {
                throw new IllegalArgumentException("bytes must be bytes (0 to 255), got " + b);
            }
        }
    }

    /**
     * The id named by {@code token_id:N}; empty when the token is not written that way or its number is malformed.
     */
    public OptionalInt namedTokenId() {
        if (token == null || !token.startsWith(TOKEN_ID)) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Integer.parseInt(token.substring(TOKEN_ID.length())));
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    /** True when the token is written {@code token_id:...}, so it is read as an id and never as text. */
    public boolean namesTokenId() {
        return token != null && token.startsWith(TOKEN_ID);
    }

    static SampledToken of(Map<String, Object> entry, String where) {
        Object token = entry.get("token");
        Object logprob = entry.get("logprob");
        if (logprob != null && !(logprob instanceof Number)) {
            throw new IllegalArgumentException(where + ".logprob must be a number, got " + logprob);
        }
        List<Integer> bytes = new ArrayList<>();
        if (entry.get("bytes") instanceof List<?> listed) {
            for (int i = 0; i < listed.size(); i++) {
                bytes.add((int) integer(listed.get(i), where + ".bytes[" + i + "]", 255));
            }
        }
        return new SampledToken(token instanceof String s ? s : null,
                logprob == null ? null : ((Number) logprob).doubleValue(), bytes);
    }

    /** A whole number in {@code [0, max]}; anything else is a bug in what was stored, since the edge refuses it. */
    static long integer(Object value, String where, long max) {
        if (!(value instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue()) || n.doubleValue() < 0
                || n.doubleValue() > max) {
            throw new IllegalArgumentException(where + " must be an integer in [0, " + max + "], got " + value);
        }
        return n.longValue();
    }
}
