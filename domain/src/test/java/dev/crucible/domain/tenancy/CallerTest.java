package dev.crucible.domain.tenancy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.UUID;
import org.junit.jupiter.api.Test;

class CallerTest {

    @Test
    void userIdIsEntityAndKeyId() {
        UUID key = UUID.fromString("00000000-0000-0000-0000-000000000007");
        assertEquals("acme:00000000-0000-0000-0000-000000000007", new Caller(new EntityName("acme"), key).userId());
    }

    @Test
    void rejectsNullFields() {
        assertThrows(NullPointerException.class, () -> new Caller(null, UUID.randomUUID()));
        assertThrows(NullPointerException.class, () -> new Caller(new EntityName("acme"), null));
    }
}
