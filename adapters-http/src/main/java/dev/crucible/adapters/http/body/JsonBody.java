package dev.crucible.adapters.http.body;

import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.kernel.refusal.RefusalException;
import io.micronaut.http.exceptions.ContentLengthExceededException;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/**
 * Parses request bodies into plain JSON values ({@code Map}, {@code List}, {@code String}, {@code Number},
 * {@code Boolean}, null) so that each field's type can be checked and refused by name. Bodies are read as they
 * arrive, from the stream Micronaut hands a controller on a blocking thread, never buffered whole first: a body
 * costs time linear in its size and no event-loop time beyond receiving it.
 */
@Singleton
public final class JsonBody {

    private final JsonValueReader reader;
    private final JsonValueReader largeReader;
    private final JsonValueReader chatReader;
    private final long jsonBodyBytes;

    JsonBody(JsonLimits limits, BodyLimits bodies) {
        this.reader = new JsonValueReader(limits, bodies.jsonBodyBytes(), "crucible.body.max-json-bytes", true);
        this.largeReader = new JsonValueReader(limits, bodies.largeBodyBytes(), "crucible.max-body-bytes", true);
        this.chatReader = new JsonValueReader(limits, bodies.jsonBodyBytes(), "crucible.body.max-json-bytes", false);
        this.jsonBodyBytes = bodies.jsonBodyBytes();
    }

    /**
     * Parses {@code body} (null when empty) as a JSON object; a missing, malformed or non-object body is a 400, and
     * so is a string (value or key) that PostgreSQL cannot store ({@link StorableText}), naming where it is.
     */
    public JsonReader object(InputStream body) {
        return parse(reader, body);
    }

    /**
     * As {@link #object} for a chat request, which is never stored: its strings reach the tokenizer as they are
     * (vLLM takes a U+0000 in a message too), so only syntax and size limits apply.
     */
    public JsonReader chatObject(InputStream body) {
        return parse(chatReader, body);
    }

    /** As {@link #object}, for the routes that take trajectories, whose bodies may be as large as any body. */
    public JsonReader largeObject(InputStream body) {
        return parse(largeReader, body);
    }

    /**
     * Reads {@code body} (null when empty) whole as bytes, for a route whose body is not JSON (Tinker's protobuf
     * {@code forward_backward}), held to the same limit as {@link #object}: an empty body is a 400, a larger one a 413.
     */
    public byte[] bytes(InputStream body) {
        if (body == null) {
            throw RefusalException.invalid("body", "request body is empty");
        }
        byte[] read;
        try (body) {
            read = body.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, jsonBodyBytes + 1));
        } catch (IOException e) {
            throw unreadable(e);
        }
        if (read.length > jsonBodyBytes) {
            throw new RefusalException(new Refusal(Refusal.Reason.TOO_LARGE, "request body is too large: the limit "
                    + "for this route is " + jsonBodyBytes + " bytes (setting crucible.body.max-json-bytes)", null));
        }
        if (read.length == 0) {
            throw RefusalException.invalid("body", "request body is empty");
        }
        return read;
    }

    private static JsonReader parse(JsonValueReader reader, InputStream body) {
        if (body == null) {
            throw RefusalException.invalid(null, "request body must be a JSON object, got an empty body");
        }
        Object parsed;
        try (body) {
            parsed = reader.read(body);
        } catch (IOException e) {
            throw unreadable(e);
        }
        if (!(parsed instanceof Map<?, ?> map)) {
            throw RefusalException.invalid(null, "request body must be a JSON object");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = (Map<String, Object>) map;
        return new JsonReader(fields, "");
    }

    private static RefusalException unreadable(IOException e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof ContentLengthExceededException) {
                return new RefusalException(new Refusal(Refusal.Reason.TOO_LARGE,
                        "request body is too large (setting crucible.max-body-bytes)", null));
            }
        }
        return RefusalException.invalid(null, "request body could not be read to its end");
    }
}
