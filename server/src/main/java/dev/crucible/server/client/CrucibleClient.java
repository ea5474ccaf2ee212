package dev.crucible.server.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Iterator;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A small client of Crucible's HTTP API on the JDK's {@link HttpClient}: JSON in and out as Jackson trees, every
 * request with {@code Authorization: Bearer <key>}. An error answer becomes an {@link ApiException} carrying the
 * message of the server's error envelope; a failed connection an {@link UncheckedIOException}. Thread-safe.
 */
public final class CrucibleClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final String apiKey;
    private final HttpClient http;

    /**
     * @param baseUrl the server's address, with or without a trailing {@code /v1}
     * @param apiKey the key sent as a bearer token
     */
    public CrucibleClient(String baseUrl, String apiKey) {
        String trimmed = baseUrl.replaceAll("/+$", "").replaceAll("/v1$", "");
        this.base = URI.create(trimmed);
        this.apiKey = apiKey;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    }

    public static ObjectMapper json() {
        return JSON;
    }

    /**
     * {@code path} with one query parameter per name/value pair added (after any it already has); a null value is
     * left out.
     */
    public static String query(String path, String... namesAndValues) {
        StringBuilder out = new StringBuilder(path);
        char separator = path.contains("?") ? '&' : '?';
        for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
            if (namesAndValues[i + 1] != null) {
                out.append(separator).append(namesAndValues[i]).append('=')
                        .append(URLEncoder.encode(namesAndValues[i + 1], StandardCharsets.UTF_8));
                separator = '&';
            }
        }
        return out.toString();
    }

    public JsonNode get(String path) {
        return send(request(path).GET().build());
    }

    /**
     * Hands every item of the cursor-paged list at {@code path} (which may carry query parameters such as
     * {@code order}) after the item {@code after} (null: from the start) to {@code item}, page by page.
     *
     * @return the id of the last item handed on, or {@code after} when there was none
     */
    public String forEachItem(String path, String after, Consumer<JsonNode> item) {
        String last = after;
        boolean more = true;
        while (more) {
            JsonNode page = get(query(path, "limit", "100", "after", last));
            for (JsonNode each : page.path("data")) {
                item.accept(each);
                last = each.path("id").asText();
            }
            more = page.path("has_more").asBoolean() && !page.path("data").isEmpty();
        }
        return last;
    }

    public JsonNode post(String path, Object body) {
        return send(request(path).header("Content-Type", "application/json").POST(jsonBody(body)).build());
    }

    /** DELETE, with a JSON body when {@code body} is not null (checkpoint deletion names its steps so). */
    public JsonNode delete(String path, Object body) {
        HttpRequest.Builder request = request(path);
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        return send(request.method("DELETE", body == null ? BodyPublishers.noBody() : jsonBody(body)).build());
    }

    /** Uploads {@code file} as the multipart part {@code file}, with {@code purpose} beside it (OpenAI's Files API). */
    public JsonNode upload(String path, String purpose, Path file) throws IOException {
        String boundary = "crucible-" + UUID.randomUUID();
        String name = file.getFileName().toString().replace("\"", "_").replace("\r", "_").replace("\n", "_");
        String head = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\n" + purpose
                + "\r\n--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + name
                + "\"\r\nContent-Type: application/octet-stream\r\n\r\n";
        String tail = "\r\n--" + boundary + "--\r\n";
        BodyPublisher body = BodyPublishers.concat(BodyPublishers.ofString(head), BodyPublishers.ofFile(file),
                BodyPublishers.ofString(tail));
        return send(request(path).header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(body).build());
    }

    /** Writes the answer's bytes to {@code target} (through a temporary file beside it, so no half file stays). */
    public void download(String path, Path target) throws IOException {
        Path partial = target.resolveSibling(target.getFileName() + ".part");
        HttpResponse<Path> response = call(request(path).GET().build(), BodyHandlers.ofFile(partial));
        if (response.statusCode() >= 400) {
            String text = Files.readString(partial);
            Files.deleteIfExists(partial);
            throw error(response.statusCode(), text);
        }
        Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
    }

    /** POSTs a streaming request and hands each server-sent event's JSON to {@code onEvent} until {@code [DONE]}. */
    public void stream(String path, Object body, Consumer<JsonNode> onEvent) {
        HttpRequest request = request(path).header("Content-Type", "application/json")
                .header("Accept", "text/event-stream").POST(jsonBody(body)).build();
        HttpResponse<Stream<String>> response = call(request, BodyHandlers.ofLines());
        try (Stream<String> lines = response.body()) {
            if (response.statusCode() >= 400) {
                throw error(response.statusCode(), String.join("\n", (Iterable<String>) lines::iterator));
            }
            Iterator<String> it = lines.iterator();
            while (it.hasNext()) {
                String line = it.next();
                if (!line.startsWith("data:")) {
                    continue;
                }
                String data = line.substring("data:".length()).strip();
                if (data.equals("[DONE]")) {
                    return;
                }
                JsonNode event = parse(data);
                if (event.has("error")) {
                    throw new ApiException(response.statusCode(), event.path("error").path("message").asText());
                }
                onEvent.accept(event);
            }
        }
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(base.resolve(path)).header("Authorization", "Bearer " + apiKey)
                .timeout(Duration.ofMinutes(10));
    }

    private JsonNode send(HttpRequest request) {
        HttpResponse<String> response = call(request, BodyHandlers.ofString());
        if (response.statusCode() >= 400) {
            throw error(response.statusCode(), response.body());
        }
        return response.body().isEmpty() ? JSON.createObjectNode() : parse(response.body());
    }

    private <T> HttpResponse<T> call(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        try {
            return http.send(request, handler);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reach " + base + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The envelope's message ({@code {"error": {"message": …}}}), else the status and the start of the body. */
    private static ApiException error(int status, String body) {
        try {
            JsonNode message = JSON.readTree(body).path("error").path("message");
            if (message.isTextual()) {
                return new ApiException(status, message.asText());
            }
        } catch (JsonProcessingException e) {
            // not JSON: fall through to the raw text
        }
        String text = body.length() > 200 ? body.substring(0, 200) + "…" : body;
        return new ApiException(status, "HTTP " + status + (text.isBlank() ? "" : ": " + text.strip()));
    }

    private static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("the server sent JSON that does not parse: " + e.getOriginalMessage(), e);
        }
    }

    private static BodyPublisher jsonBody(Object body) {
        try {
            return BodyPublishers.ofString(JSON.writeValueAsString(body));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write the request body: " + e.getOriginalMessage(), e);
        }
    }
}
