package dev.crucible.testsupport.constraint;

import java.util.Map;

/** JSON Schemas whose automata grow with a parameter, for tests of the constraint compiler's size budget. */
public final class HostileSchemas {

    private HostileSchemas() {
    }

    /** An integer inside {@code depth} nested arrays. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> nestedArrays(int depth) {
        Object schema = Map.of("type", "integer");
        for (int i = 0; i < depth; i++) {
            schema = Map.of("type", "array", "items", schema);
        }
        return (Map<String, Object>) schema;
    }
}
