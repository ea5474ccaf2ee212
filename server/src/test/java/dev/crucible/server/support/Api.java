package dev.crucible.server.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/** A plain HTTP client of the running server, as an outside client sees it (JDK HttpClient, JSON text). */
public final class Api {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final JsonMapper JSON = JsonMapper.createDefault();

    private final String base;
    private final String authorization;
    private final Map<String, String> headers;
    private final Observer observer;

    /** Sees every exchange this client makes: the request's method and path, the answer's status, headers and text. */
    @FunctionalInterface
    public interface Observer {
        Observer NONE = (method, path, status, headers, body) -> { };

        void exchanged(String method, String path, int status, Map<String, List<String>> headers, String body);
    }

    public Api(String base, String key) {
        this(base.endsWith("/") ? base.substring(0, base.length() - 1) : base, key == null ? null : "Bearer " + key,
                Map.of(), Observer.NONE);
    }

    private Api(String base, String authorization, Map<String, String> headers, Observer observer) {
        this.base = base;
        this.authorization = authorization;
        this.headers = headers;
        this.observer = observer;
    }

    /** The same server with another Authorization header value (null for none). */
    public Api withAuthorization(String header) {
        return new Api(base, header, headers, observer);
    }

    /** The same server, each exchange also shown to {@code seen} (text bodies; downloads with no body). */
    public Api observedBy(Observer seen) {
        return new Api(base, authorization, headers, seen);
    }

    /** The same server with Basic credentials as Weave sends them: user {@code api}, password {@code key}. */
    public Api withBasic(String key) {
        byte[] credentials = ("api:" + key).getBytes(StandardCharsets.UTF_8);
        return withAuthorization("Basic " + Base64.getEncoder().encodeToString(credentials));
    }

    /** The same server, sending {@code name: value} with every request as well. */
    public Api withHeader(String name, String value) {
        Map<String, String> more = new java.util.LinkedHashMap<>(headers);
        more.put(name, value);
        return new Api(base, authorization, Map.copyOf(more), observer);
    }

    /** A response: status and parsed JSON body (a map, or a list; null when empty). */
    public record Reply(int status, Object body, Map<String, List<String>> headers) {

        @SuppressWarnings("unchecked")
        public Map<String, Object> json() {
            return (Map<String, Object>) body;
        }

        @SuppressWarnings("unchecked")
        public Map<String, Object> error() {
            return (Map<String, Object>) json().get("error");
        }

        @SuppressWarnings("unchecked")
        public List<Map<String, Object>> data() {
            return (List<Map<String, Object>>) json().get("data");
        }

        public String text(String key) {
            return (String) json().get(key);
        }

        /**
         * Fails unless this is an error answer of {@code expected} status whose {@code param} is {@code param} and
         * whose message holds each of {@code says} (a setting's name, vLLM's words).
         */
        public void assertRefused(int expected, String param, String... says) {
            assertEquals(expected, status, toString());
            assertEquals(param, error().get("param"), toString());
            String message = String.valueOf(error().get("message"));
            for (String said : says) {
                assertTrue(message.contains(said), "'" + said + "' in: " + this);
            }
        }

        /** The first of a chat completion's {@code choices}. */
        @SuppressWarnings("unchecked")
        public Map<String, Object> firstChoice() {
            return ((List<Map<String, Object>>) json().get("choices")).getFirst();
        }
    }

    public Reply get(String path) {
        return send("GET", path, null);
    }

    public Reply post(String path, Object body) {
        return send("POST", path, body);
    }

    public Reply delete(String path, Object body) {
        return send("DELETE", path, body);
    }

    /** Sends {@code body} as-is when it is a String, else as JSON. */
    public Reply send(String method, String path, Object body) {
        return reply(request(method, path, body));
    }

    /** A streamed answer: status, headers and the whole text of its server-sent events. */
    public record Events(int status, Map<String, List<String>> headers, String body) {

        /** The {@code data: } lines, in order ({@code data: [DONE]} last when the stream completed). */
        public List<String> data() {
            return body.lines().filter(l -> l.startsWith("data: ")).toList();
        }
    }

    /** POSTs {@code body} as {@link #send} does and keeps the answer as text, as a stream of server-sent events. */
    public Events stream(String path, Object body) {
        HttpResponse<String> response = respond(request("POST", path, body), HttpResponse.BodyHandlers.ofString());
        observer.exchanged("POST", path, response.statusCode(), response.headers().map(), response.body());
        return new Events(response.statusCode(), response.headers().map(), response.body());
    }

    private HttpRequest.Builder request(String method, String path, Object body) {
        String text;
        try {
            text = body == null ? null : body instanceof String s ? s : JSON.writeValueAsString(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
                .method(method, text == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(text));
        if (text != null) {
            request.header("Content-Type", "application/json");
        }
        return request;
    }

    /**
     * POSTs a multipart/form-data body: the text {@code fields}, then, when {@code content} is not null, a file part
     * named {@code file} with {@code filename} (none when null).
     */
    public Reply upload(String path, Map<String, String> fields, String filename, byte[] content) {
        return upload(path, fields, "file", filename, content);
    }

    /** As {@link #upload(String, Map, String, byte[])}, with the file part named {@code part}. */
    public Reply upload(String path, Map<String, String> fields, String part, String filename, byte[] content) {
        String boundary = "crucible-test-" + System.nanoTime();
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        fields.forEach((name, value) -> body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\""
                + name + "\"\r\n\r\n" + value + "\r\n").getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        if (content != null) {
            body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + part + "\""
                    + (filename == null ? "" : "; filename=\"" + filename + "\"")
                    + "\r\nContent-Type: application/octet-stream\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            body.writeBytes(content);
            body.writeBytes("\r\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        body.writeBytes(("--" + boundary + "--\r\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()));
        return reply(request);
    }

    /** A response whose body is kept as bytes. */
    public record Bytes(int status, byte[] body, Map<String, List<String>> headers) {
    }

    /** GETs {@code path}, keeping the body as bytes (file downloads). */
    public Bytes download(String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60)).GET();
        HttpResponse<byte[]> response = respond(request, HttpResponse.BodyHandlers.ofByteArray());
        observer.exchanged("GET", path, response.statusCode(), response.headers().map(), null);
        return new Bytes(response.statusCode(), response.body(), response.headers().map());
    }

    /**
     * POSTs {@code body} as-is with {@code headers} (its Content-Type among them), keeping the answer as bytes: what a
     * protobuf client sends and reads.
     */
    public Bytes postBytes(String path, Map<String, String> headers, byte[] body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(request::header);
        HttpResponse<byte[]> response = respond(request, HttpResponse.BodyHandlers.ofByteArray());
        observer.exchanged("POST", path, response.statusCode(), response.headers().map(), null);
        return new Bytes(response.statusCode(), response.body(), response.headers().map());
    }

    /** {@code bytes} read as a JSON reply (a refusal's envelope, a JSON result). */
    public static Reply json(Bytes bytes) {
        try {
            Object parsed = bytes.body().length == 0 ? null : JSON.readValue(bytes.body(), Argument.OBJECT_ARGUMENT);
            return new Reply(bytes.status(), parsed, bytes.headers());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Reply reply(HttpRequest.Builder request) {
        HttpResponse<String> response = respond(request, HttpResponse.BodyHandlers.ofString());
        HttpRequest sent = response.request();
        observer.exchanged(sent.method(), sent.uri().getRawPath(), response.statusCode(), response.headers().map(),
                response.body());
        try {
            Object parsed = response.body().isBlank() ? null : JSON.readValue(response.body(),
                    Argument.OBJECT_ARGUMENT);
            return new Reply(response.statusCode(), parsed, response.headers().map());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends {@code request} with this client's Authorization and extra headers. */
    private <T> HttpResponse<T> respond(HttpRequest.Builder request, HttpResponse.BodyHandler<T> body) {
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        headers.forEach(request::header);
        try {
            return HTTP.send(request.build(), body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
