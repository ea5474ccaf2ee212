package dev.crucible.domain.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RecordedAnswerTest {

    @ParameterizedTest
    @ValueSource(ints = {200, 201, 299})
    void keepsSuccessfulAnswers(int status) {
        assertEquals(status, new RecordedAnswer(status, "{}").status());
    }

    @ParameterizedTest
    @ValueSource(ints = {199, 300, 400, 500})
    void refusesAnythingElse(int status) {
        assertEquals("only successful answers are recorded, got " + status,
                assertThrows(IllegalArgumentException.class, () -> new RecordedAnswer(status, "{}")).getMessage());
    }

    @Test
    void theBodyIsRequired() {
        assertEquals("json", assertThrows(NullPointerException.class, () -> new RecordedAnswer(200, null)).getMessage());
    }
}
