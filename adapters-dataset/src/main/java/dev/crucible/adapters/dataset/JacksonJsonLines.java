package dev.crucible.adapters.dataset;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crucible.application.job.dataset.JsonLineParser;
import jakarta.inject.Singleton;

/**
 * Parses one line of a JSON Lines dataset with Jackson: objects become {@code LinkedHashMap}s in document order,
 * and anything after the line's value (two documents on one line) is an error.
 */
@Singleton
final class JacksonJsonLines implements JsonLineParser {

    private static final int MAX_MESSAGE = 200;
    private final ObjectMapper mapper = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    @Override
    public Object parse(String json) {
        try {
            return mapper.readValue(json, Object.class);
        } catch (JsonProcessingException e) {
            // The original message leaves out Jackson's source excerpt; the column says where on the line.
            String message = e.getOriginalMessage() == null ? "unreadable" : e.getOriginalMessage();
            int newline = message.indexOf('\n');
            message = newline < 0 ? message : message.substring(0, newline);
            if (message.length() > MAX_MESSAGE) {
                message = message.substring(0, MAX_MESSAGE) + "…";
            }
            String where = e.getLocation() == null ? "" : " (column " + e.getLocation().getColumnNr() + ")";
            throw new IllegalArgumentException(message + where, e);
        }
    }
}
