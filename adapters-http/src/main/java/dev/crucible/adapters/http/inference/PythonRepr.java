package dev.crucible.adapters.http.inference;

import dev.crucible.domain.common.PythonNumbers;
import dev.crucible.domain.common.PythonStrings;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Python's {@code repr} of JSON values, as vLLM's f-strings and pydantic's error dicts print them. */
final class PythonRepr {

    private PythonRepr() {
    }

    static String of(Object value) {
        return switch (value) {
            case null -> "None";
            case Boolean b -> b ? "True" : "False";
            case Number n -> PythonNumbers.repr(n);
            case String s -> string(s);
            case List<?> l -> l.stream().map(PythonRepr::of).collect(Collectors.joining(", ", "[", "]"));
            case Map<?, ?> m -> m.entrySet().stream().map(e -> of(e.getKey()) + ": " + of(e.getValue()))
                    .collect(Collectors.joining(", ", "{", "}"));
            default -> string(value.toString());
        };
    }

    /** A Python string literal: single quotes unless the text holds a single quote and no double quote. */
    static String string(String s) {
        return PythonStrings.repr(s);
    }
}
