package dev.crucible.adapters.http.auth;

import dev.crucible.domain.tenancy.ApiKeySecret;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The API key a request presents, read from its headers alone: {@code Authorization: Bearer <key>} everywhere,
 * {@code Basic base64(<any user>:<key>)} on the feedback and object routes, and on the training primitives' routes
 * ({@code /api/v1/}) also {@code X-API-Key: tml-<key>} as the Tinker SDK sends it (the SDK refuses keys without that
 * prefix, so the prefix is taken off; a key sent without it is taken as it is). Nothing is looked up, so it can be
 * read wherever the headers are, before the request is authenticated.
 */
public final class PresentedKey {

    /** The header the Tinker SDK sends its key in. */
    public static final String API_KEY_HEADER = "X-API-Key";
    /** The prefix the Tinker SDK requires of keys. */
    static final String TINKER_PREFIX = "tml-";
    private static final String PRIMITIVES = "/api/v1/";

    /** The budget bucket of requests that present no key. */
    public static final String NONE = "-";

    private static final List<String> BASIC_PREFIXES = List.of("/feedback/", "/obj/");

    private PresentedKey() {
    }

    /**
     * The key in {@code authorization} or, on the primitives' routes when there is no {@code Authorization},
     * {@code apiKey} (the {@code X-API-Key} header's value); each null when absent.
     */
    public static Optional<ApiKeySecret> of(String authorization, String apiKey, String path) {
        if (authorization == null && apiKey != null && path.startsWith(PRIMITIVES)) {
            String key = apiKey.strip();
            return nonBlank(key.startsWith(TINKER_PREFIX) ? key.substring(TINKER_PREFIX.length()) : key);
        }
        return of(authorization, path);
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
     * A name for the key in {@code authorization} (or {@code apiKey}, as {@link #of(String, String, String)}) that per-key budgets count under: the key's hash (the key
     * itself is never kept), or {@link #NONE} when no key is presented.
     */
    public static String bucket(String authorization, String path) {
        return bucket(authorization, null, path);
    }

    /** As {@link #bucket(String, String)}, with the {@code X-API-Key} header's value too. */
    public static String bucket(String authorization, String apiKey, String path) {
        return of(authorization, apiKey, path).map(ApiKeySecret::hash).orElse(NONE);
    }

    private static Optional<ApiKeySecret> nonBlank(String key) {
        return key.isBlank() ? Optional.empty() : Optional.of(new ApiKeySecret(key));
    }
}
