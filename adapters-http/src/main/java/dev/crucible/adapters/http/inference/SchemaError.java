package dev.crucible.adapters.http.inference;

import dev.crucible.kernel.python.PythonRepr;
import dev.crucible.kernel.refusal.RefusalException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A schema error as vLLM reports pydantic's: message {@code "1 validation error:\n  {'type': …, 'loc': ('body', …),
 * 'msg': …, 'input': …[, 'ctx': {…}]}"}; the {@code param} is Crucible's path of the field ({@code stop[1]}).
 */
final class SchemaError {

    private SchemaError() {
    }

    /**
     * @param loc   the field's location below the body: keys and list indexes
     * @param type  pydantic's error type ({@code int_type}, {@code less_than_equal}, …)
     * @param msg   pydantic's message
     * @param input the rejected value
     * @param ctx   pydantic's context, empty for none
     */
    static RefusalException of(List<Object> loc, String type, String msg, Object input, Map<String, Object> ctx) {
        StringBuilder dict = new StringBuilder("{'type': ").append(PythonRepr.string(type))
                .append(", 'loc': ").append(locRepr(loc))
                .append(", 'msg': ").append(PythonRepr.string(msg))
                .append(", 'input': ").append(PythonRepr.of(input));
        if (!ctx.isEmpty()) {
            dict.append(", 'ctx': ").append(PythonRepr.of(ctx));
        }
        return RefusalException.invalid(path(loc), "1 validation error:\n  " + dict.append('}'));
    }

    static RefusalException of(List<Object> loc, String type, String msg, Object input) {
        return of(loc, type, msg, input, Map.of());
    }

    /** An ordered pydantic context from alternating keys and values. */
    static Map<String, Object> ctx(Object... keysAndValues) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            out.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return out;
    }

    /** Crucible's path of a location: {@code messages[0].content}. */
    static String path(List<Object> loc) {
        StringBuilder out = new StringBuilder();
        for (Object part : loc) {
            if (part instanceof Integer index) {
                out.append('[').append(index).append(']');
            } else {
                out.append(out.isEmpty() ? "" : ".").append(part);
            }
        }
        return out.toString();
    }

    private static String locRepr(List<Object> loc) {
        return loc.stream().map(PythonRepr::of).collect(Collectors.joining(", ", "('body', ", ")"));
    }
}
