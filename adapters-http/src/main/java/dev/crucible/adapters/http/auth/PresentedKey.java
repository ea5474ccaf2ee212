package dev.crucible.adapters.http.auth;

import dev.crucible.domain.tenancy.ApiKeySecret;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The API key a request presents, read from its {@code Authorization} header alone: {@code Bearer <key>} everywhere,
 * and {@code Basic base64(<any user>:<key>)} on the feedback and object routes. Nothing is looked up, so it can be
 * read wherever the header is, before the request is authenticated.
 */
public final class PresentedKey {

    /** The budget bucket of requests that present no key. */
    public static final String NONE = "-";

    private static final List<String> BASIC_PREFIXES = List.of("/feedback/", "/obj/");

    private PresentedKey() {
    }

    /** The key in {@code authorization} (the header's value, null when absent) for a request to {@code path}. */
    public static Optional<ApiKeySecret> of(String authorization, String path) {
        if (authorization == null) {
            return Optional.empty();
        }
        String value = authorization.strip();
        if (value.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return nonBlank(value.substring(7).strip());
        }
        if (value.regionMatches(true, 0, "Basic ", 0, 6) && BASIC_PREFIXES.stream().anyMatch(path::startsWith)) {
            try {
                String decoded = new String(Base64.getDecoder().decode(value.substring(6).strip()), StandardCharsets.UTF_8);
                int colon = decoded.indexOf(':');
                return colon < 0 ? Optional.empty() : nonBlank(decoded.substring(colon + 1));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /**
     * A name for the key in {@code authorization} that per-key budgets count under: the key's hash (the key
     * itself is never kept), or {@link #NONE} when no key is presented.
     */
    public static String bucket(String authorization, String path) {
        return of(authorization, path).map(ApiKeySecret::hash).orElse(NONE);
    }

    private static Optional<ApiKeySecret> nonBlank(String key) {
        return key.isBlank() ? Optional.empty() : Optional.of(new ApiKeySecret(key));
    }
}
