package dev.crucible.kernel.invariant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class NonNullTest {

    /** The shapes a record has: a primitive between references, a component that may be null. */
    private record Sample(String first, int count, Optional<String> second, @Nullable Object free, String last) {

        Sample {
            NonNull.components(Sample.class, first, second, last);
        }
    }

    @Test
    void acceptsNonNullValuesAndANullWhereTheComponentMayBeNull() {
        Sample sample = new Sample("a", 1, Optional.empty(), null, "z");

        assertEquals("z", sample.last());
    }

    @Test
    void namesTheFirstComponent() {
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> new Sample(null, 1, Optional.empty(), "free", "z"));

        assertEquals("first", e.getMessage());
    }

    @Test
    void namesAComponentThatFollowsAPrimitive() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> new Sample("a", 1, null, "free", "z"));

        assertEquals("second", e.getMessage());
    }

    @Test
    void namesAComponentThatFollowsOneThatMayBeNull() {
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> new Sample("a", 1, Optional.empty(), null, null));

        assertEquals("last", e.getMessage());
    }

    @Test
    void namesTheFirstOfSeveralNulls() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> new Sample("a", 1, null, null, null));

        assertEquals("second", e.getMessage());
    }

    @Test
    void checksOnlyTheLeadingComponentsGiven() {
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> NonNull.components(Sample.class, "a", null));

        assertEquals("second", e.getMessage());
        NonNull.components(Sample.class, "a");
    }

    @Test
    void refusesMoreValuesThanTheRecordChecks() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NonNull.components(Sample.class, "a", Optional.empty(), "z", null));

        assertEquals(Sample.class.getName() + " has fewer than 4 components that must not be null", e.getMessage());
    }
}
