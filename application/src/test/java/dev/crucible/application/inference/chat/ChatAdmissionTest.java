package dev.crucible.application.inference.chat;

import static dev.crucible.testsupport.outcome.OutcomeAssertions.refusal;
import static dev.crucible.testsupport.outcome.OutcomeAssertions.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Refusal;
import dev.crucible.runtime.generation.RequestOwner;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ChatAdmissionTest {

    private static final Duration RETRY = Duration.ofSeconds(4);
    private static final RequestOwner A1 = new RequestOwner("a", "key-1");
    private static final RequestOwner A2 = new RequestOwner("a", "key-2");
    private static final RequestOwner B = new RequestOwner("b", "key-3");

    @Test
    void aKeyAtItsBoundIsRefusedAsOverloadedWhileOtherKeysAreAdmitted() {
        ChatAdmission admission = new ChatAdmission(new RequestLimits(2, 10));
        value(admission.admit(A1, RETRY));
        value(admission.admit(A1, RETRY));

        Refusal refused = refusal(admission.admit(A1, RETRY));

        assertEquals(Refusal.Reason.OVERLOADED, refused.reason());
        assertEquals(Optional.of(RETRY), refused.retryAfter());
        assertTrue(refused.message().contains("This API key already has 2"), refused.message());
        value(admission.admit(A2, RETRY));
        value(admission.admit(B, RETRY));
    }

    @Test
    void anEntityAtItsBoundIsRefusedWhateverKeyItUses() {
        ChatAdmission admission = new ChatAdmission(new RequestLimits(5, 2));
        value(admission.admit(A1, RETRY));
        value(admission.admit(A2, RETRY));

        Refusal refused = refusal(admission.admit(new RequestOwner("a", "key-9"), RETRY));

        assertTrue(refused.message().contains("Entity 'a' already has 2"), refused.message());
        value(admission.admit(B, RETRY));
    }

    @Test
    void aReleasedTicketFreesItsPlaceOnceHoweverOftenItIsReleased() {
        ChatAdmission admission = new ChatAdmission(new RequestLimits(1, 1));
        ChatAdmission.Ticket ticket = value(admission.admit(A1, RETRY));
        ChatAdmission.Ticket other = value(admission.admit(B, RETRY));
        refusal(admission.admit(A1, RETRY));

        ticket.release();
        ticket.release();

        assertEquals(0, admission.heldByKey(A1));
        value(admission.admit(A1, RETRY));
        refusal(admission.admit(A2, RETRY));
        assertEquals(1, admission.heldByKey(B));
        other.release();
        assertEquals(0, admission.heldByKey(B));
    }

    @Test
    void boundsMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new RequestLimits(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new RequestLimits(1, 0));
    }
}
