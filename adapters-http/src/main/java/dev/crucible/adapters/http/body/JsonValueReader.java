package dev.crucible.adapters.http.body;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.crucible.kernel.reading.JsonReader;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.kernel.refusal.RefusalException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one JSON document into plain values ({@code LinkedHashMap}, {@code ArrayList}, {@code String}, the
 * parser's {@code Integer}/{@code Long}/{@code BigInteger}/{@code Double}, {@code Boolean}, null; a repeated key keeps
 * its last value), the values Micronaut's mapper gave, under {@link JsonLimits}. A document over a limit is a 400 that
 * names the limit's setting and where in the body it was crossed; Jackson's own wording never reaches the caller.
 * Reads from a stream in one pass, without recursion, in time linear in the body's size.
 */
final class JsonValueReader {

    private final JsonFactory factory;
    private final JsonLimits limits;
    private final long maxBytes;
    private final String bytesSetting;
    private final boolean storable;

    /**
     * @param maxBytes the route's body limit, named by setting {@code bytesSetting}; over it is a 413
     * @param storable whether every string (value or key) must be one PostgreSQL can store: see {@link StorableText}
     */
    JsonValueReader(JsonLimits limits, long maxBytes, String bytesSetting, boolean storable) {
        this.storable = storable;
        this.limits = limits;
        this.maxBytes = maxBytes;
        this.bytesSetting = bytesSetting;
        this.factory = JsonFactory.builder().streamReadConstraints(StreamReadConstraints.builder()
                .maxStringLength(limits.maxStringLength())
                .maxNestingDepth(limits.maxNestingDepth())
                .maxNumberLength(limits.maxNumberLength())
                .maxDocumentLength(maxBytes)
                .maxNameLength(Math.min(limits.maxStringLength(), 1 << 20))
                .build()).build();
    }

    Object read(InputStream in) throws IOException {
        try (JsonParser parser = factory.createParser(in)) {
            try {
                Object value = value(parser, storable);
                if (parser.nextToken() != null) {
                    throw RefusalException.invalid(null, "request body is not valid JSON: more content after the document");
                }
                return value;
            } catch (StreamConstraintsException e) {
                throw overLimit(parser, e);
            } catch (JsonProcessingException e) {
                throw RefusalException.invalid(null, "request body is not valid JSON: " + syntax(e));
            }
        }
    }

    private static Object value(JsonParser p, boolean storable) throws IOException {
        JsonToken first = p.nextToken();
        if (first == null) {
            throw RefusalException.invalid(null, "request body must be a JSON object, got an empty body");
        }
        Deque<Object> open = new ArrayDeque<>();
        Deque<String> keys = new ArrayDeque<>();
        JsonToken t = first;
        while (true) {
            Object done;
            switch (t) {
                case START_OBJECT -> {
                    open.push(new LinkedHashMap<String, Object>());
                    t = p.nextToken();
                    continue;
                }
                case START_ARRAY -> {
                    open.push(new ArrayList<>());
                    t = p.nextToken();
                    continue;
                }
                case FIELD_NAME -> {
                    keys.push(storable ? storableText(p, p.currentName()) : p.currentName());
                    t = p.nextToken();
                    continue;
                }
                case END_OBJECT, END_ARRAY -> done = open.pop();
                case VALUE_STRING -> done = storable ? storableText(p, p.getText()) : p.getText();
                case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> done = p.getNumberValue();
                case VALUE_TRUE -> done = Boolean.TRUE;
                case VALUE_FALSE -> done = Boolean.FALSE;
                case VALUE_NULL -> done = null;
                default -> throw RefusalException.invalid(null, "request body is not valid JSON");
            }
            if (open.isEmpty()) {
                return done;
            }
            add(open.peek(), keys, done);
            t = p.nextToken();
        }
    }

    /** {@code text} when PostgreSQL can store it, else a 400 naming where in the body it is. */
    private static String storableText(JsonParser p, String text) {
        StorableText.problem(text).ifPresent(problem -> {
            String at = where(p);
            throw RefusalException.invalid(at, (at == null ? "a JSON string" : at) + " " + problem);
        });
        return text;
    }

    @SuppressWarnings("unchecked")
    private static void add(Object container, Deque<String> keys, Object value) {
        if (container instanceof Map<?, ?> map) {
            ((Map<String, Object>) map).put(keys.pop(), value);
        } else {
            ((List<Object>) container).add(value);
        }
    }

    private RefusalException overLimit(JsonParser parser, StreamConstraintsException e) {
        String at = where(parser);
        String text = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        String message;
        if (text.startsWith("String value length") || text.startsWith("Name length")) {
            message = "a JSON string in the request body is longer than " + limits.maxStringLength()
                    + " characters (setting crucible.json.max-string-length)";
        } else if (text.startsWith("Document nesting depth")) {
            message = "the request body nests objects and arrays deeper than " + limits.maxNestingDepth()
                    + " levels (setting crucible.json.max-nesting-depth)";
        } else if (text.startsWith("Number value length")) {
            message = "a number in the request body is longer than " + limits.maxNumberLength()
                    + " characters (setting crucible.json.max-number-length)";
        } else if (text.startsWith("Document length")) {
            return new RefusalException(new Refusal(Refusal.Reason.TOO_LARGE, "request body is too large: the limit "
                    + "for this route is " + maxBytes + " bytes (setting " + bytesSetting + ")", null));
        } else {
            message = "the request body is over a JSON parsing limit";
        }
        return RefusalException.invalid(at, at == null ? message : message + ", at " + at);
    }

    /** The path of the value being read when the parser stopped, as {@link JsonReader} names fields, or null at the top. */
    private static String where(JsonParser parser) {
        var context = parser.getParsingContext();
        List<String> parts = new ArrayList<>();
        for (var c = context; c != null && !c.inRoot(); c = c.getParent()) {
            if (c.inObject()) {
                if (c.getCurrentName() != null) {
                    parts.addFirst("." + c.getCurrentName());
                }
            } else if (c.inArray()) {
                parts.addFirst("[" + Math.max(0, c.getCurrentIndex()) + "]");
            }
        }
        if (parts.isEmpty()) {
            return null;
        }
        String path = String.join("", parts);
        return path.startsWith(".") ? path.substring(1) : path;
    }

    private static String syntax(JsonProcessingException e) {
        String message = e.getOriginalMessage();
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        String line = nl < 0 ? message : message.substring(0, nl);
        return line.length() > 200 ? line.substring(0, 200) : line;
    }
}
