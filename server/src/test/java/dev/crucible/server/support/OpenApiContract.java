package dev.crucible.server.support;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The server's own OpenAPI document as a contract its real answers must keep: each exchange an {@link Api} makes is
 * matched to its operation (method and path template), its status must be one the operation documents (or its
 * {@code default}), its content type one the status documents, and a JSON body must be valid against that content's
 * schema (JSON Schema 2020-12, OpenAPI 3.1's dialect, with the document's components for {@code $ref}s), checked
 * with networknt's validator. Collects what it saw, so a test can also ask which documented operations it covered.
 */
public final class OpenApiContract implements Api.Observer {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SchemaRegistry SCHEMAS = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

    private final Map<String, Object> document;
    private final boolean strict;
    private final List<String> violations = new ArrayList<>();
    private final Set<String> covered = new TreeSet<>();
    private final Map<String, Schema> compiled = new LinkedHashMap<>();

    /** A contract under which an exchange with no documented operation breaks it. */
    public OpenApiContract(Map<String, Object> document) {
        this(document, true);
    }

    /**
     * @param strict whether an exchange with no documented operation breaks the contract; when false it is let by
     *               (tests that probe unknown routes and wrong methods, the console's and the document's own files)
     */
    public OpenApiContract(Map<String, Object> document, boolean strict) {
        this.document = document;
        this.strict = strict;
    }

    /** Every documented operation, as {@code "GET /v1/models"}. */
    public Set<String> operations() {
        Set<String> operations = new TreeSet<>();
        paths().forEach((path, item) -> ((Map<?, ?>) item).keySet()
                .forEach(method -> operations.add(method.toString().toUpperCase() + " " + path)));
        return operations;
    }

    /** The documented operations an exchange reached. */
    public Set<String> covered() {
        return Set.copyOf(covered);
    }

    /** Every way an exchange broke the contract, one line each; empty when all kept it. */
    public List<String> violations() {
        return List.copyOf(violations);
    }

    @Override
    public synchronized void exchanged(String method, String rawPath, int status, Map<String, List<String>> headers,
            String body) {
        String path = rawPath.contains("?") ? rawPath.substring(0, rawPath.indexOf('?')) : rawPath;
        String at = method + " " + path + " -> " + status + ": ";
        String template = template(path, method.toLowerCase());
        if (template == null) {
            if (strict) {
                violations.add(at + "no documented operation");
            }
            return;
        }
        covered.add(method + " " + template);
        Map<?, ?> responses = (Map<?, ?>) operation(template, method.toLowerCase()).get("responses");
        Object response = responses.containsKey(Integer.toString(status)) ? responses.get(Integer.toString(status))
                : status >= 400 ? responses.get("default") : null;
        if (response == null) {
            violations.add(at + "status not documented (" + responses.keySet() + ")");
            return;
        }
        Map<?, ?> content = (Map<?, ?>) ((Map<?, ?>) response).get("content");
        String type = headers.getOrDefault("content-type", List.of("")).getFirst();
        if (content == null || body == null || body.isEmpty()) {
            return;
        }
        Map.Entry<?, ?> media = content.entrySet().stream()
                .filter(e -> type.startsWith(e.getKey().toString().split(";")[0]) || e.getKey().equals("*/*"))
                .findFirst().orElse(null);
        if (media == null) {
            violations.add(at + "content type " + type + " not documented (" + content.keySet() + ")");
            return;
        }
        if (!media.getKey().toString().startsWith("application/json")) {
            return;
        }
        Object schema = ((Map<?, ?>) media.getValue()).get("schema");
        List<Error> errors = schema(schema).validate(body, InputFormat.JSON);
        if (!errors.isEmpty()) {
            violations.add(at + errors.stream().map(Error::toString).toList() + " in " + abbreviate(body));
        }
    }

    /** The documented path template {@code path} matches for {@code method}, or null. */
    private String template(String path, String method) {
        String[] parts = path.split("/", -1);
        for (Map.Entry<String, Object> entry : paths().entrySet()) {
            String[] template = entry.getKey().split("/", -1);
            if (template.length != parts.length || !((Map<?, ?>) entry.getValue()).containsKey(method)) {
                continue;
            }
            boolean matches = true;
            for (int i = 0; i < parts.length && matches; i++) {
                matches = template[i].startsWith("{") || template[i].equals(parts[i]);
            }
            if (matches) {
                return entry.getKey();
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> paths() {
        return (Map<String, Object>) document.get("paths");
    }

    private Map<?, ?> operation(String template, String method) {
        return (Map<?, ?>) ((Map<?, ?>) paths().get(template)).get(method);
    }

    /** A schema of the document, its {@code $ref}s resolved against the document's components. */
    private Schema schema(Object schema) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        root.put("allOf", List.of(schema));
        root.put("components", document.get("components"));
        try {
            String text = JSON.writeValueAsString(root);
            return compiled.computeIfAbsent(text, SCHEMAS::getSchema);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String abbreviate(String body) {
        return body.length() <= 300 ? body : body.substring(0, 300) + "…";
    }
}
