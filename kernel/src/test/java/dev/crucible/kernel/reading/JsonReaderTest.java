package dev.crucible.kernel.reading;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JsonReaderTest {

    private static <T> Outcome<T> read(Map<String, Object> values, JsonReader.Body<T> body) {
        return JsonReader.read(values, "cfg", body);
    }

    private static Map<String, Object> withNull(String key) {
        Map<String, Object> map = new HashMap<>();
        map.put(key, null);
        return map;
    }

    @Test
    void readReturnsTheBodysValue() {
        assertEquals("ok", value(read(Map.of(), r -> "ok")));
    }

    @Test
    void paramJoinsPrefixAndKey() {
        assertEquals("cfg.lr", new JsonReader(Map.of(), "cfg").path("lr"));
    }

    @Test
    void paramWithEmptyPrefixIsTheBareKey() {
        assertEquals("lr", new JsonReader(Map.of(), "").path("lr"));
    }

    @Test
    void rejectNamesPrefixedKeyInParamAndMessage() {
        assertInvalid(read(Map.of(), r -> {
            throw r.reject("k", "is bad");
        }), "cfg.k", "cfg.k is bad");
    }

    @Test
    void rejectsNullValuesOrPrefix() {
        assertThrows(NullPointerException.class, () -> new JsonReader(null, "p"));
        assertThrows(NullPointerException.class, () -> new JsonReader(Map.of(), null));
    }

    @Test
    void presentIsFalseForMissingAndNullKeys() {
        assertFalse(new JsonReader(Map.of(), "cfg").present("k"));
        assertFalse(new JsonReader(withNull("k"), "cfg").present("k"));
        assertTrue(new JsonReader(Map.of("k", false), "cfg").present("k"));
    }

    @Test
    void numberFallsBackWhenMissingOrNull() {
        assertEquals(2.5, value(read(Map.of(), r -> r.number("k", 2.5))));
        assertEquals(2.5, value(read(withNull("k"), r -> r.number("k", 2.5))));
        assertNull(new JsonReader(Map.of(), "cfg").number("k", null));
    }

    @Test
    void numberWidensIntegers() {
        assertEquals(3.0, value(read(Map.of("k", 3), r -> r.number("k", 0.0))));
        assertEquals(7.0, value(read(Map.of("k", 7L), r -> r.number("k", 0.0))));
    }

    @Test
    void numberRefusesAString() {
        assertInvalid(read(Map.of("k", "1"), r -> r.number("k", 0.0)), "cfg.k", "cfg.k must be a number, got a string");
    }

    @Test
    void numberRefusesNanAndInfinity() {
        assertInvalid(read(Map.of("k", Double.NaN), r -> r.number("k", 0.0)), "cfg.k",
                "cfg.k must be a number, got the number NaN");
        assertInvalid(read(Map.of("k", Double.POSITIVE_INFINITY), r -> r.number("k", 0.0)), "cfg.k",
                "cfg.k must be a number, got the number Infinity");
    }

    @Test
    void rangedNumberAcceptsBothBounds() {
        assertEquals(-1.0, value(read(Map.of("k", -1), r -> r.number("k", 0.0, -1, 1))));
        assertEquals(1.0, value(read(Map.of("k", 1), r -> r.number("k", 0.0, -1, 1))));
    }

    @Test
    void rangedNumberRefusesValuesOutsideTheBounds() {
        assertInvalid(read(Map.of("k", 1.5), r -> r.number("k", 0.0, -1, 1)), "cfg.k",
                "cfg.k must be between -1.0 and 1.0, got 1.5");
        assertInvalid(read(Map.of("k", -1.5), r -> r.number("k", 0.0, -1, 1)), "cfg.k",
                "cfg.k must be between -1.0 and 1.0, got -1.5");
    }

    @Test
    void rangedNumberKeepsANullFallback() {
        assertNull(new JsonReader(Map.of(), "cfg").number("k", null, 0, 1));
    }

    @Test
    void positiveRefusesZeroAndNegatives() {
        assertInvalid(read(Map.of("k", 0), r -> r.positive("k", 1.0)), "cfg.k", "cfg.k must be > 0, got 0.0");
        assertInvalid(read(Map.of("k", -2), r -> r.positive("k", 1.0)), "cfg.k", "cfg.k must be > 0, got -2.0");
    }

    @Test
    void positiveAcceptsTinyValuesAndNullFallback() {
        assertEquals(1e-12, value(read(Map.of("k", 1e-12), r -> r.positive("k", 1.0))));
        assertNull(new JsonReader(Map.of(), "cfg").positive("k", null));
    }

    @Test
    void integerFallsBackWhenMissing() {
        assertEquals(4, (int) value(read(Map.of(), r -> r.integer("k", 4, 1))));
        assertNull(new JsonReader(Map.of(), "cfg").integer("k", null, 1));
    }

    @Test
    void integerAcceptsWholeDoublesAndTheMinimum() {
        assertEquals(3, (int) value(read(Map.of("k", 3.0), r -> r.integer("k", 0, 1))));
        assertEquals(1, (int) value(read(Map.of("k", 1), r -> r.integer("k", 0, 1))));
        assertEquals(Integer.MAX_VALUE, (int) value(read(Map.of("k", (long) Integer.MAX_VALUE), r -> r.integer("k", 0, 1))));
    }

    @Test
    void integerRefusesFractionsStringsAndHugeNumbers() {
        assertInvalid(read(Map.of("k", 1.5), r -> r.integer("k", 0, 1)), "cfg.k",
                "cfg.k must be an integer, got the number 1.5");
        assertInvalid(read(Map.of("k", "3"), r -> r.integer("k", 0, 1)), "cfg.k",
                "cfg.k must be an integer, got a string");
        assertInvalid(read(Map.of("k", 3_000_000_000L), r -> r.integer("k", 0, 1)), "cfg.k",
                "cfg.k must be an integer, got the number 3000000000");
        assertInvalid(read(Map.of("k", -3_000_000_000L), r -> r.integer("k", 0, -5)), "cfg.k",
                "cfg.k must be an integer, got the number -3000000000");
    }

    @Test
    void integerRefusesValuesBelowTheMinimum() {
        assertInvalid(read(Map.of("k", 0), r -> r.integer("k", 5, 1)), "cfg.k", "cfg.k must be >= 1, got 0");
    }

    @Test
    void boolReadsBooleansAndFallsBack() {
        assertEquals(true, value(read(Map.of("k", true), r -> r.bool("k", false))));
        assertEquals(false, value(read(Map.of("k", false), r -> r.bool("k", true))));
        assertEquals(true, value(read(Map.of(), r -> r.bool("k", true))));
        assertEquals(false, value(read(Map.of(), r -> r.bool("k", false))));
    }

    @Test
    void boolRefusesOtherTypes() {
        assertInvalid(read(Map.of("k", 1), r -> r.bool("k", false)), "cfg.k", "cfg.k must be a boolean, got the number 1");
    }

    @Test
    void stringReadsStringsAndFallsBack() {
        assertEquals("x", value(read(Map.of("k", "x"), r -> r.string("k", "d"))));
        assertEquals("d", value(read(Map.of(), r -> r.string("k", "d"))));
    }

    @Test
    void stringRefusesOtherTypes() {
        assertInvalid(read(Map.of("k", List.of()), r -> r.string("k", "d")), "cfg.k", "cfg.k must be a string, got an array");
    }

    @Test
    void oneOfAcceptsAllowedValuesAndNullFallback() {
        assertEquals("b", value(read(Map.of("k", "b"), r -> r.oneOf("k", "a", Set.of("a", "b")))));
        assertEquals("a", value(read(Map.of(), r -> r.oneOf("k", "a", Set.of("a", "b")))));
        assertNull(new JsonReader(Map.of(), "cfg").oneOf("k", null, Set.of("a")));
    }

    @Test
    void oneOfRefusesOtherValuesListingTheAllowedOnesSorted() {
        assertInvalid(read(Map.of("k", "z"), r -> r.oneOf("k", "a", Set.of("c", "a", "b"))), "cfg.k",
                "cfg.k must be one of [a, b, c], got 'z'");
    }

    @Test
    void rawReturnsTheStoredValue() {
        assertEquals(List.of(1), new JsonReader(Map.of("k", List.of(1)), "cfg").raw("k"));
        assertNull(new JsonReader(Map.of(), "cfg").raw("k"));
    }

    @Test
    void describeNamesEachJsonType() {
        assertEquals("null", JsonReader.describe(null));
        assertEquals("a string", JsonReader.describe("s"));
        assertEquals("a boolean", JsonReader.describe(true));
        assertEquals("the number 2.5", JsonReader.describe(2.5));
        assertEquals("an array", JsonReader.describe(List.of()));
        assertEquals("an object", JsonReader.describe(Map.of()));
        assertEquals("Object", JsonReader.describe(new Object()));
    }

    @Test
    void firstRefusalStopsTheRead() {
        boolean[] reachedSecond = {false};
        Outcome<Double> outcome = read(Map.of("a", "x"), r -> {
            r.number("a", 0.0);
            reachedSecond[0] = true;
            return 1.0;
        });
        assertInvalid(outcome, "cfg.a", "cfg.a must be a number, got a string");
        assertFalse(reachedSecond[0]);
    }

    @Test
    void namesNestedValuesByTheirPathInTheDocument() {
        Map<String, Object> body = Map.of("groups", List.of(Map.of("trajectories",
                List.of(Map.of("reward", 1.0), Map.of("reward", "high")))));
        Outcome<Double> outcome = JsonReader.read(body, "", r -> r.objects("groups").getFirst().objects("trajectories")
                .get(1).number("reward").orElseThrow());
        assertInvalid(outcome, "groups[0].trajectories[1].reward",
                "groups[0].trajectories[1].reward must be a number, got a string");
        assertInvalid(JsonReader.read(Map.of("groups", List.of(1)), "", r -> r.objects("groups")), "groups[0]",
                "groups[0] must be an object, got the number 1");
    }

    @Test
    void refusesUnknownKeysButIgnoresUnknownNulls() {
        assertInvalid(JsonReader.read(Map.of("a", 1, "b", 2), Set.of("a"), r -> 0), "b",
                "b is not a known field (extra inputs are not permitted)");
        assertEquals("read", value(JsonReader.read(withNull("b"), Set.of("a"), r -> "read")));
    }

    @Test
    void anOptionalNumberIsTheNumberOrEmpty() {
        assertEquals(java.util.Optional.of(2.5), value(read(Map.of("t", 2.5), r -> r.number("t"))));
        assertEquals(java.util.Optional.empty(), value(read(Map.of(), r -> r.number("t"))));
    }

    @Test
    void onlyKnownGivesTheSameReaderToChainOn() {
        assertEquals("cfg.a", value(read(Map.of("a", 1), r -> r.onlyKnown(Set.of("a")).path("a"))));
    }

    @Test
    void anOptionalNumberMustBeFinite() {
        assertInvalid(JsonReader.read(Map.of("t", Double.POSITIVE_INFINITY), "x", r -> r.number("t")), "x.t",
                "x.t must be a finite number, got the number Infinity");
    }

    @Test
    void requiredReadsReturnTheValueOrRefuseTheMissingKeyAtItsPath() {
        Map<String, Object> values = Map.of("s", "text", "o", Map.of("k", 1), "a", List.of(1, 2));
        assertEquals("text", value(read(values, r -> r.requireString("s"))));
        assertEquals(1, ((Number) value(read(values, r -> r.requireObject("o").raw("k")))).intValue());
        assertEquals("cfg.o.k", value(read(values, r -> r.requireObject("o").path("k"))));
        assertEquals(List.of(1, 2), value(read(values, r -> r.requireArray("a"))));
        assertInvalid(read(values, r -> r.requireString("x")), "cfg.x", "cfg.x is required");
        assertInvalid(read(values, r -> r.requireObject("x")), "cfg.x", "cfg.x is required");
        assertInvalid(read(values, r -> r.requireArray("x")), "cfg.x", "cfg.x is required");
        assertInvalid(read(values, r -> r.requireObject("s")), "cfg.s", "cfg.s must be an object, got a string");
    }

    @Test
    void aForbiddenKeyIsRefusedEvenAsNull() {
        assertInvalid(read(withNull("id"), r -> {
            r.forbid("id", "is set by the server");
            return "read";
        }), "cfg.id", "cfg.id is set by the server");
        assertEquals("read", value(read(Map.of(), r -> {
            r.forbid("id", "is set by the server");
            return "read";
        })));
    }

    @Test
    void rawIsTheWholeObject() {
        Map<String, Object> values = Map.of("a", 1);
        assertEquals(values, value(read(values, JsonReader::raw)));
    }

    private static <T> T value(Outcome<T> outcome) {
        return outcome.orElseThrow();
    }

    private static void assertInvalid(Outcome<?> outcome, String param, String message) {
        assertEquals(Outcome.refused(Refusal.invalid(param, message)), outcome);
    }
}
