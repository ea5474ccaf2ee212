package dev.crucible.application.inference.chat;

import dev.crucible.application.inference.chat.ask.ChatOutput;
import dev.crucible.application.inference.chat.ask.ChatRequest;
import dev.crucible.application.inference.chat.ask.ResponseFormat;
import dev.crucible.application.inference.chat.ask.StructuredOutputs;
import dev.crucible.application.inference.chat.ask.ToolChoice;
import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.runtime.structured.OutputConstraint;
import dev.crucible.runtime.structured.OutputConstraints;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A chat request's {@code response_format} and {@code structured_outputs} → the constraint generation must follow,
 * as vLLM merges them: {@code json_object} sets {@code json_object}, {@code json_schema} sets {@code json} (and
 * overrides the same key of {@code structured_outputs}), {@code structural_tag} sets {@code structural_tag} (the
 * format object itself), {@code text} sets nothing. Refused with vLLM's messages: two constraints at once, an empty
 * choice list, a NUL in a regex, an empty grammar, {@code json_object: false}, an invalid regex, schema, grammar
 * (the message names the rule) or structural tag. Stateless.
 */
final class StructuredOutputMapper {

    private StructuredOutputMapper() {
    }

    /**
     * The constraint of {@code request}: its structured outputs, or the call a {@code tool_choice} of
     * {@code "required"} or a named function forces (see {@link ToolChoiceSchemas}). As in vLLM, a named choice
     * together with structured outputs is refused, and {@code "required"} replaces them (vLLM's tool parser sets
     * {@code structured_outputs} to the tool schema alone and drops {@code response_format}), so the forced schema
     * gets only the server's default whitespace. Structured outputs are still checked first, so an invalid one is
     * refused either way.
     *
     * @param whitespace what JSON constraints allow between tokens unless the request says otherwise: vLLM's
     *                   {@link OutputConstraints#ANY_WHITESPACE}, or {@code ""} for a server that disables it
     */
    static Outcome<Optional<OutputConstraint>> map(ChatRequest request, OutputConstraints compiler, String whitespace) {
        Outcome<Optional<OutputConstraint>> structured = map(request.output(), compiler, whitespace);
        Optional<Map<String, Object>> forced = ToolChoiceSchemas.of(request.tools());
        if (forced.isEmpty()) {
            return structured;
        }
        boolean named = request.tools().toolChoice() instanceof ToolChoice.Named;
        return structured.then(constraint -> {
            if (constraint.isPresent() && named) {
                return refused("tool_choice", "You can only either use constraints for structured outputs or "
                        + "tools, not both.");
            }
            return compiler.jsonSchema("tools", forced.get(), whitespace, false)
                    .map(Optional::of);
        });
    }

    /** {@link #map(ChatRequest, OutputConstraints, String)} with vLLM's default whitespace. */
    static Outcome<Optional<OutputConstraint>> map(ChatRequest request, OutputConstraints compiler) {
        return map(request, compiler, OutputConstraints.ANY_WHITESPACE);
    }

    /** {@link #map(ChatOutput, OutputConstraints, String)} with vLLM's default whitespace. */
    static Outcome<Optional<OutputConstraint>> map(ChatOutput output, OutputConstraints compiler) {
        return map(output, compiler, OutputConstraints.ANY_WHITESPACE);
    }

    /** The constraint of a request's structured outputs alone; {@code whitespace} as for the request's. */
    static Outcome<Optional<OutputConstraint>> map(ChatOutput output, OutputConstraints compiler,
            String defaultWhitespace) {
        Optional<ResponseFormat> format = output.responseFormat();
        Optional<StructuredOutputs> explicit = output.structuredOutputs();
        Map<String, Object> kinds = new LinkedHashMap<>();
        explicit.ifPresent(so -> {
            so.json().ifPresent(v -> kinds.put("json", v));
            so.regex().ifPresent(v -> kinds.put("regex", v));
            so.choice().ifPresent(v -> kinds.put("choice", v));
            so.grammar().ifPresent(v -> kinds.put("grammar", v));
            so.jsonObject().ifPresent(v -> kinds.put("json_object", v));
            so.structuralTag().ifPresent(v -> kinds.put("structural_tag", v));
        });
        String param = "structured_outputs";
        if (format.isPresent()) {
            switch (format.get().type()) {
                case TEXT -> { }
                case JSON_OBJECT -> {
                    kinds.put("json_object", true);
                    param = "response_format";
                }
                case JSON_SCHEMA -> {
                    Optional<Map<String, Object>> schema = format.get().jsonSchema().flatMap(s -> s.schema());
                    if (schema.isEmpty()) {
                        return refused("response_format", "You must use one kind of structured outputs constraint "
                                + "but none are specified: the response_format json_schema has no schema");
                    }
                    kinds.put("json", schema.get());
                    param = "response_format";
                }
                case STRUCTURAL_TAG -> {
                    kinds.put("structural_tag", format.get().raw());
                    param = "response_format";
                }
            }
        }
        if (kinds.isEmpty()) {
            return Outcome.done(Optional.empty());
        }
        if (kinds.size() > 1) {
            return refused(param, "You can only use one kind of structured outputs constraint but multiple are "
                    + "specified: " + kinds.keySet());
        }
        boolean compact = explicit.map(StructuredOutputs::disableAnyWhitespace).orElse(false);
        String whitespace = compact ? "" : explicit.flatMap(StructuredOutputs::whitespacePattern)
                .orElse(defaultWhitespace);
        boolean noAdditional = explicit.map(StructuredOutputs::disableAdditionalProperties).orElse(false);
        Map.Entry<String, Object> kind = kinds.entrySet().iterator().next();
        Object value = kind.getValue();
        Outcome<OutputConstraint> constraint = switch (kind.getKey()) {
            case "json" -> compiler.jsonSchema(param, value, whitespace, noAdditional);
            case "regex" -> ((String) value).indexOf('\0') >= 0 ? refused(param,
                    "structured_outputs.regex must not contain a NUL character ('\\x00')")
                    : compiler.regex(param, (String) value);
            case "choice" -> choice(param, value, compiler);
            case "json_object" -> Boolean.TRUE.equals(value) ? compiler.jsonObject(param, whitespace) : refused(param,
                    "structured_outputs.json_object must be True if set; omit structured_outputs to disable "
                            + "structured outputs");
            case "grammar" -> ((String) value).isEmpty() ? refused(param,
                    "structured_outputs.grammar cannot be an empty string") : compiler.grammar(param, (String) value);
            case "structural_tag" -> compiler.structuralTag(param, value, whitespace, noAdditional);
            default -> throw new IllegalStateException("unknown structured outputs kind " + kind.getKey());
        };
        return constraint.map(Optional::of);
    }

    private static Outcome<OutputConstraint> choice(String param, Object value, OutputConstraints compiler) {
        @SuppressWarnings("unchecked")
        List<String> choices = (List<String>) value;
        if (choices.isEmpty()) {
            return refused(param, "Choice '[]' cannot be an empty list");
        }
        return compiler.choice(param, choices);
    }

    private static <T> Outcome<T> refused(String param, String message) {
        return Outcome.refused(Refusal.invalid(param, message));
    }
}
