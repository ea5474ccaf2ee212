package dev.crucible.application.inference.chat.ask;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A chat request's {@code structured_outputs} (vLLM's {@code StructuredOutputsParams}), holding exactly one
 * constraint: {@code json} (a schema as an object or a JSON string), {@code regex}, {@code choice}, {@code grammar},
 * {@code json_object} or {@code structural_tag}.
 *
 * @param structuralTag the structural tag, parsed from the JSON text the request carries it in (an object)
 * @param raw the object as sent, including keys not modelled here ({@code _backend}, {@code disable_fallback})
 */
public record StructuredOutputs(Optional<Object> json, Optional<String> regex, Optional<List<String>> choice,
        Optional<String> grammar, Optional<Boolean> jsonObject, boolean disableAnyWhitespace,
        boolean disableAdditionalProperties, Optional<String> whitespacePattern, Optional<Object> structuralTag,
        Map<String, Object> raw) {

    public StructuredOutputs {
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(regex, "regex");
        choice = Objects.requireNonNull(choice, "choice").map(List::copyOf);
        Objects.requireNonNull(grammar, "grammar");
        Objects.requireNonNull(jsonObject, "jsonObject");
        Objects.requireNonNull(whitespacePattern, "whitespacePattern");
        Objects.requireNonNull(structuralTag, "structuralTag");
        raw = JsonCopies.map(raw);
    }

    /** How many of the six constraints are set. */
    public int constraintCount() {
        return (int) List.of(json, regex, choice, grammar, jsonObject, structuralTag).stream()
                .filter(Optional::isPresent).count();
    }
}
