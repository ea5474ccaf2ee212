package dev.crucible.adapters.http.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ErrorEnvelopeTest {

    @Test
    void aMessageWithinTheBoundIsKeptAsItIs() {
        String pydantic = "1 validation error:\n  {'type': 'missing'}";
        assertEquals(pydantic, ErrorEnvelope.of(400, pydantic, "x").error().message());
    }

    @Test
    void aMessageQuotingMegabytesIsCutAndSaysHowLongItWas() {
        String message = "bad regex: " + "a\n".repeat(100_000);
        String answered = ErrorEnvelope.of(400, message, "structured_outputs").error().message();
        assertEquals(ErrorEnvelope.MAX_MESSAGE_CHARS + "… (200011 characters)".length(), answered.length());
        assertTrue(answered.endsWith("… (200011 characters)"), answered);
    }

    @Test
    void aCutNeverSplitsASurrogatePair() {
        String message = "x".repeat(ErrorEnvelope.MAX_MESSAGE_CHARS - 1) + "😀" + "tail";
        String answered = ErrorEnvelope.bounded(message);
        assertEquals("x".repeat(ErrorEnvelope.MAX_MESSAGE_CHARS - 1) + "… (" + message.length() + " characters)",
                answered);
    }
}
