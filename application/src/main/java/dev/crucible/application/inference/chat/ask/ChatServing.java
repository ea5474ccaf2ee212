package dev.crucible.application.inference.chat.ask;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Scheduling, caching and pass-through fields of a chat request.
 *
 * @param priority         lower is served earlier, 0 by default; accepted and ignored under first-come scheduling,
 *                         as vLLM's V1 engine does
 * @param requestId        the client's id, empty for a random one ({@code X-Request-Id} wins over both)
 * @param cacheSalt        salts the prefix cache; non-empty, at most 128 characters, none of {@code @ / \ NUL}
 * @param kvTransferParams disaggregated-serving parameters, passed through
 * @param engineXargs      extension arguments ({@code engine_xargs}, alias {@code vllm_xargs}), passed through
 * @param user             ignored
 */
public record ChatServing(long priority, Optional<String> requestId, Optional<String> cacheSalt,
        Optional<Map<String, Object>> kvTransferParams, Map<String, Object> engineXargs, Optional<String> user) {

    public ChatServing {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(cacheSalt, "cacheSalt");
        kvTransferParams = Objects.requireNonNull(kvTransferParams, "kvTransferParams").map(JsonCopies::map);
        engineXargs = JsonCopies.map(engineXargs);
        Objects.requireNonNull(user, "user");
    }

    /** Priority 0 and nothing else. */
    public static ChatServing defaults() {
        return new ChatServing(0, Optional.empty(), Optional.empty(), Optional.empty(), Map.of(), Optional.empty());
    }
}
