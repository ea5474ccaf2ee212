package dev.crucible.adapters.http.inference;

import dev.crucible.application.inference.chat.ask.ChatOutput;
import dev.crucible.application.inference.chat.ask.ResponseFormat;
import dev.crucible.application.inference.chat.ask.StructuredOutputs;
import dev.crucible.kernel.python.PythonRepr;
import dev.crucible.kernel.refusal.RefusalException;
import io.micronaut.core.type.Argument;
import io.micronaut.json.JsonMapper;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads the output-shape fields: echo, reasoning and detokenisation flags, {@code response_format} (type text,
 * json_object, json_schema with a required {@code name}, or structural_tag) and {@code structured_outputs}, which
 * must hold exactly one constraint (vLLM's {@code StructuredOutputsParams.__post_init__} messages); its
 * {@code structural_tag}, JSON text, is parsed here.
 */
final class OutputReader {

    /** Reads schemas sent as strings; request bodies are parsed by {@code JsonBody}. */
    private static final JsonMapper SCHEMA_TEXT = JsonMapper.createDefault();
    private static final List<String> FORMAT_TYPES = List.of("text", "json_object", "json_schema", "structural_tag");
    private static final List<String> CONSTRAINTS =
            List.of("json", "regex", "choice", "grammar", "json_object", "structural_tag");

    private OutputReader() {
    }

    static ChatOutput read(ChatFields f) {
        return new ChatOutput(f.bool("echo", false), f.bool("include_reasoning", true),
                f.bool("skip_special_tokens", true), f.bool("spaces_between_special_tokens", true),
                f.child("response_format").map(OutputReader::responseFormat),
                f.child("structured_outputs").map(OutputReader::structuredOutputs));
    }

    private static ResponseFormat responseFormat(ChatFields rf) {
        if (!rf.has("type")) {
            throw rf.missing("type");
        }
        String type = rf.string("type").orElseThrow();
        if (!FORMAT_TYPES.contains(type)) {
            String expected = "'text', 'json_object', 'json_schema' or 'structural_tag'";
            throw SchemaError.of(rf.loc("type"), "literal_error", "Input should be " + expected, type,
                    SchemaError.ctx("expected", expected));
        }
        Optional<ResponseFormat.JsonSchema> schema = rf.child("json_schema").map(js -> {
            if (!js.has("name")) {
                throw js.missing("name");
            }
            return new ResponseFormat.JsonSchema(js.string("name").orElseThrow(), js.string("description"),
                    js.object("schema"), js.bool("strict"));
        });
        ResponseFormat.Type kind = ResponseFormat.Type.valueOf(type.toUpperCase());
        return new ResponseFormat(kind, kind == ResponseFormat.Type.JSON_SCHEMA ? schema : Optional.empty(), rf.raw());
    }

    private static StructuredOutputs structuredOutputs(ChatFields so) {
        Object json = so.get("json");
        if (json != null && !(json instanceof String) && !(json instanceof Map<?, ?>)) {
            throw SchemaError.of(so.loc("json"), "string_type", "Input should be a valid string", json);
        }
        if (json instanceof String text) {
            json = schemaText(text);
        }
        StructuredOutputs out = new StructuredOutputs(Optional.ofNullable(json), so.string("regex"),
                so.elements("choice", LaxValues::asString), so.string("grammar"), so.bool("json_object"),
                so.bool("disable_any_whitespace", false), so.bool("disable_additional_properties", false),
                so.string("whitespace_pattern"), so.string("structural_tag").map(OutputReader::structuralTagText),
                so.raw());
        if (out.constraintCount() != 1) {
            Map<String, Object> given = SchemaError.ctx();
            CONSTRAINTS.forEach(key -> given.put(key, so.get(key)));
            String which = out.constraintCount() == 0 ? "You must use one kind of structured outputs constraint but "
                    + "none are specified: " : "You can only use one kind of structured outputs constraint but "
                    + "multiple are specified: ";
            throw RefusalException.invalid("structured_outputs", which + PythonRepr.of(given));
        }
        return out;
    }

    /** A schema sent as a JSON string, parsed (vLLM's engine-side checks and messages). */
    private static Object schemaText(String text) {
        if (text.isEmpty()) {
            throw RefusalException.invalid("structured_outputs", "structured_outputs.json cannot be an empty string");
        }
        try {
            return Objects.requireNonNull(SCHEMA_TEXT.readValue(text, Argument.OBJECT_ARGUMENT));
        } catch (IOException | RuntimeException e) {
            throw RefusalException.invalid("structured_outputs", "Invalid JSON grammar specification.");
        }
    }

    /** A structural tag, which {@code structured_outputs} carries as JSON text, parsed; it must be an object. */
    private static Object structuralTagText(String text) {
        Object parsed;
        try {
            parsed = SCHEMA_TEXT.readValue(text, Argument.OBJECT_ARGUMENT);
        } catch (IOException | RuntimeException e) {
            parsed = null;
        }
        if (!(parsed instanceof Map<?, ?>)) {
            throw RefusalException.invalid("structured_outputs",
                    "Invalid structured_outputs structural_tag specification: it must be a JSON object in a string");
        }
        return parsed;
    }
}
