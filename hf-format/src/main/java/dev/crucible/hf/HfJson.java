package dev.crucible.hf;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * JSON reading and writing shared by the Hugging Face file formats: strict parsing (duplicate keys and trailing text are errors) and
 * output laid out as Python's {@code json.dump(indent=2)} lays it out. Stateless and thread-safe.
 */
public final class HfJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
    private static final ObjectWriter PRETTY = MAPPER.writer(prettyPrinter());

    private HfJson() {
    }

    /** Two-space indentation, {@code "key": value}, one array element per line and {@code \n} on every platform. */
    private static DefaultPrettyPrinter prettyPrinter() {
        DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter();
        printer.indentObjectsWith(indenter);
        printer.indentArraysWith(indenter);
        return printer.withSeparators(Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                .withObjectEmptySeparator("").withArrayEmptySeparator(""));
    }

    /** Parses JSON text; malformed text fails with a {@link ModelFormatException} naming {@code what} (a file name). */
    public static JsonNode parse(String json, String what) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new ModelFormatException(what + " is not valid JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Reads and parses a JSON file; the file's name is used in error messages. */
    public static JsonNode read(Path file) throws IOException {
        return parse(Files.readString(file), file.getFileName().toString());
    }

    /** A new, empty JSON object whose keys keep insertion order. */
    public static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }

    /** A new, empty JSON array. */
    public static ArrayNode array() {
        return JsonNodeFactory.instance.arrayNode();
    }

    /** The node as indented JSON with a trailing newline, as Hugging Face writes its config files. */
    public static String pretty(JsonNode node) {
        try {
            return PRETTY.writeValueAsString(node) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The node as compact JSON with no whitespace. */
    public static String compact(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
