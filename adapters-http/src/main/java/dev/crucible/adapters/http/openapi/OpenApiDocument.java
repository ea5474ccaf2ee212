package dev.crucible.adapters.http.openapi;

import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The generated OpenAPI document as served: micronaut-openapi writes each operation's success responses from the
 * code; every operation also answers errors in the one envelope, which this adds as its {@code default} response
 * rather than repeating it on each of the controllers' methods.
 */
final class OpenApiDocument {

    /** Where micronaut-openapi writes the document ({@code openapi.properties}). */
    static final String RESOURCE = "META-INF/swagger/crucible.json";
    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch", "head", "options");

    private OpenApiDocument() {
    }

    /** The served document's bytes. */
    static byte[] load(JsonMapper json) {
        try (InputStream in = OpenApiDocument.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the OpenAPI document " + RESOURCE + " was not generated");
            }
            Map<String, Object> document = json.readValue(in, Argument.mapOf(String.class, Object.class));
            return json.writeValueAsBytes(withErrorEnvelope(document));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code document} with a {@code default} response of the error envelope on every operation that lacks one. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> withErrorEnvelope(Map<String, Object> document) {
        Map<String, Object> paths = (Map<String, Object>) document.getOrDefault("paths", Map.of());
        for (Object path : paths.values()) {
            for (Map.Entry<String, Object> operation : ((Map<String, Object>) path).entrySet()) {
                if (METHODS.contains(operation.getKey())
                        && ((Map<String, Object>) operation.getValue()).get("responses") instanceof Map<?, ?> responses
                        && !responses.containsKey("default")) {
                    ((Map<String, Object>) responses).put("default", errorResponse());
                }
            }
        }
        return document;
    }

    private static Map<String, Object> errorResponse() {
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("description", "An error: 4xx for what the request did, 5xx for the server's faults");
        response.put("content", Map.of("application/json",
                Map.of("schema", Map.of("$ref", "#/components/schemas/ErrorEnvelope"))));
        return response;
    }
}
