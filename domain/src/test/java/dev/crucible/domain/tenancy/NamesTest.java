package dev.crucible.domain.tenancy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class NamesTest {

    private static final String BAD = "name must be 1 to 128 characters without '/', ':' or whitespace, got '";

    @Test
    void acceptsOrdinaryNames() {
        assertNull(Names.problem("name", "my-model_v2.1"));
        assertNull(Names.problem("name", "ünïcode"));
        assertNull(Names.problem("name", "x"));
    }

    @Test
    void acceptsExactly128Characters() {
        assertNull(Names.problem("name", "a".repeat(128)));
    }

    @Test
    void refuses129Characters() {
        String long129 = "a".repeat(129);
        assertEquals(BAD + long129 + "'", Names.problem("name", long129));
    }

    @Test
    void refusesEmptyAndNull() {
        assertEquals("project must not be empty", Names.problem("project", ""));
        assertEquals("project must not be empty", Names.problem("project", null));
    }

    @Test
    void refusesSlashColonWhitespaceAndControlCharacters() {
        assertEquals(BAD + "a/b'", Names.problem("name", "a/b"));
        assertEquals(BAD + "a:b'", Names.problem("name", "a:b"));
        assertEquals(BAD + "a b'", Names.problem("name", "a b"));
        assertEquals(BAD + "a\tb'", Names.problem("name", "a\tb"));
        assertEquals(BAD + "a\u0007b'", Names.problem("name", "a\u0007b"));
    }

    @Test
    void requireReturnsAValidName() {
        assertEquals("ok", Names.require("name", "ok"));
    }

    @Test
    void requireThrowsWithTheProblem() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Names.require("entity", ""));
        assertEquals("entity must not be empty", e.getMessage());
    }
}
