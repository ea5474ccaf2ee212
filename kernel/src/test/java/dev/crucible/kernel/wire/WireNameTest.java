package dev.crucible.kernel.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WireNameTest {

    /** Two constants named by default, one spelled otherwise on the wire. */
    private enum Colour implements WireName {
        RED,
        DARK_GREEN,
        OFF_WHITE {
            @Override
            public String wireName() {
                return "off-white";
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"red, RED", "dark_green, DARK_GREEN", "off-white, OFF_WHITE"})
    void aConstantIsFoundByItsWireName(String text, Colour colour) {
        assertEquals(Optional.of(colour), WireName.find(Colour.values(), text));
        assertEquals(text, colour.wireName());
    }

    @ParameterizedTest
    @CsvSource({"RED", "Red", "' red'", "off_white", "OFF_WHITE", "''"})
    void onlyTheExactWireNameIsFound(String text) {
        assertEquals(Optional.empty(), WireName.find(Colour.values(), text));
    }

    @Property
    void whatIsFoundHasExactlyTheTextAsItsWireName(@ForAll String text) {
        Optional<String> expected = Set.of("red", "dark_green", "off-white").contains(text) ? Optional.of(text)
                : Optional.empty();
        assertEquals(expected, WireName.find(Colour.values(), text).map(Colour::wireName));
    }

    @Test
    void nullIsNotFound() {
        assertEquals(Optional.empty(), WireName.find(Colour.values(), null));
    }

    @Test
    void namesAreQuotedForMessages() {
        assertEquals("'red', 'dark_green', 'off-white'", WireName.quoted(Colour.values()));
    }
}
