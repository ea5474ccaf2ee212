package dev.crucible.runtime.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class PartialJsonTest {

    private static final String TRICKY = "{ \"a\" : [1, -2.50e1, true, null, \"x\\\"y\\u00e9\\n\"], \"b\": {\"c\": {}},"
            + " \"d\": \"\u20ac\uD83D\uDE00\", \"e\": 12345678901234567890}";

    @Test
    void dumpsWritesWhatPythonsJsonDumpsWrites() {
        Object value = PartialJson.loads(TRICKY).orElseThrow().value();
        assertEquals("{\"a\": [1, -25.0, true, null, \"x\\\"y\u00e9\\n\"], \"b\": {\"c\": {}}, \"d\": \"\u20ac\uD83D\uDE00\","
                + " \"e\": 12345678901234567890}", PartialJson.dumps(false).dumps(value));
        assertTrue(PartialJson.dumps(true).dumps(value).contains("\"x\\\"y\\u00e9\\n\""));
    }

    @Test
    void everyPrefixRendersAsAPrefixOfTheFinishedRendering() {
        for (boolean ascii : new boolean[] {false, true}) {
            String finished = PartialJson.dumps(ascii).dumps(PartialJson.loads(TRICKY).orElseThrow().value());
            for (int end = 1; end <= TRICKY.length(); end++) {
                Optional<PartialJson.Node> node = PartialJson.parse(TRICKY.substring(0, end), 0).node();
                String rendered = node.map(n -> PartialJson.render(n, ascii)).orElse("");
                assertTrue(finished.startsWith(rendered), "prefix " + end + " rendered " + rendered);
            }
        }
    }

    @Test
    void loadsRefusesWhatPythonRefuses() {
        assertTrue(PartialJson.loads("{\"a\": 1,}").isEmpty());
        assertTrue(PartialJson.loads("{\"a\": 01}").isEmpty());
        assertTrue(PartialJson.loads("\"raw\ncontrol\"").isEmpty());
        assertTrue(PartialJson.loads("{} {}").isEmpty());
        assertEquals(Optional.of(new PartialJson.Holder(null)), PartialJson.loads(" null \n"));
    }
}
