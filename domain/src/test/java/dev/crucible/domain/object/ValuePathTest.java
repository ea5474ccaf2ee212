package dev.crucible.domain.object;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.crucible.domain.feedback.RefEdge;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ValuePathTest {

    private static final Map<String, Object> VAL = Map.of("specs", List.of(Map.of("field_schema", Map.of()), "b"),
            "name", "x");

    private static RefEdge edge(RefEdge.Kind kind, String value) {
        return new RefEdge(kind, value);
    }

    @Test
    void noEdgesIsTheValueItself() {
        assertEquals(Optional.of(VAL), ValuePath.resolve(VAL, List.of()));
        assertEquals(Optional.empty(), ValuePath.resolve(null, List.of()));
    }

    @Test
    void followsKeysAttributesAndIndices() {
        assertEquals(Optional.of(Map.of("field_schema", Map.of())), ValuePath.resolve(VAL,
                List.of(edge(RefEdge.Kind.KEY, "specs"), edge(RefEdge.Kind.INDEX, "0"))));
        assertEquals(Optional.of("b"), ValuePath.resolve(VAL,
                List.of(edge(RefEdge.Kind.ATTR, "specs"), edge(RefEdge.Kind.INDEX, "-1"))));
    }

    @Test
    void findsNothingOffThePath() {
        assertEquals(Optional.empty(), ValuePath.resolve(VAL, List.of(edge(RefEdge.Kind.KEY, "missing"))));
        assertEquals(Optional.empty(), ValuePath.resolve(VAL,
                List.of(edge(RefEdge.Kind.KEY, "specs"), edge(RefEdge.Kind.INDEX, "2"))));
        assertEquals(Optional.empty(), ValuePath.resolve(VAL,
                List.of(edge(RefEdge.Kind.KEY, "specs"), edge(RefEdge.Kind.INDEX, "-3"))));
        assertEquals(Optional.empty(), ValuePath.resolve(VAL,
                List.of(edge(RefEdge.Kind.KEY, "name"), edge(RefEdge.Kind.KEY, "x"))));
        assertEquals(Optional.empty(), ValuePath.resolve(VAL, List.of(edge(RefEdge.Kind.ID, "row"))));
    }
}
