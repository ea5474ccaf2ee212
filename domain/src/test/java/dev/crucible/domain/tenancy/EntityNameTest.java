package dev.crucible.domain.tenancy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class EntityNameTest {

    @Test
    void toStringIsTheName() {
        assertEquals("acme", new EntityName("acme").toString());
    }

    @Test
    void rejectsInvalidNamesNamingEntity() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new EntityName("a/b"));
        assertEquals("entity must be 1 to 128 characters without '/', ':' or whitespace, got 'a/b'", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new EntityName(null));
    }
}
