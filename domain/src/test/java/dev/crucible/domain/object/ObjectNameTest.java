package dev.crucible.domain.object;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.assertInvalid;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which names pass was checked against Python's {@code re.findall(r"[^\w._-]", name)}. */
class ObjectNameTest {

    @ParameterizedTest
    @ValueSource(strings = {"quality", "ok.name-1_x", "caf\u00e9", "\u540d\u524d", "x\u00b2", "\u216b", "\u0663", "_"})
    void acceptsLettersNumbersUnderscoresPeriodsAndDashes(String name) {
        assertEquals(name, value(ObjectName.parse(name)).value());
        assertTrue(ObjectName.isValid(name));
    }

    @Test
    void refusesOtherCharactersListingThemOnce() {
        assertInvalid(ObjectName.parse("a/b:c/d"), "object_id", "object_id 'a/b:c/d' contains invalid characters "
                + "['/', ':']; use only letters, digits, underscores, periods and dashes");
        assertInvalid(ObjectName.parse("a b"), "object_id", "object_id 'a b' contains invalid characters [' ']; "
                + "use only letters, digits, underscores, periods and dashes");
    }

    @ParameterizedTest
    @ValueSource(strings = {"e\u0301", "\u203f", "a\u200db", "\uD83D\uDC4D", "tab\t"})
    void refusesMarksConnectorsJoinersAndSymbolsAsPythonsWordClassDoes(String name) {
        assertFalse(ObjectName.isValid(name));
    }

    @Test
    void refusesEmptyAndNull() {
        assertInvalid(ObjectName.parse(""), "object_id", "object_id must not be empty");
        assertInvalid(ObjectName.parse(null), "object_id", "object_id must not be empty");
    }

    @Test
    void allowsAtMost128CodePoints() {
        assertTrue(ObjectName.isValid("\uD840\uDC00".repeat(128)), "128 supplementary letters are 256 chars in Java");
        assertInvalid(ObjectName.parse("a".repeat(129)), "object_id",
                "object_id must be at most 128 characters, got 129");
    }

    @Test
    void constructorRejectsInvalidNames() {
        assertThrows(IllegalArgumentException.class, () -> new ObjectName("a/b"));
    }
}
