package dev.crucible.domain.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.crucible.domain.tenancy.EntityName;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ModelAddressTest {

    private static final ModelCoordinates AGENT = new ModelCoordinates(new EntityName("acme"), "chat", "agent");

    private static ModelAddress parsed(String text) {
        return ModelAddress.parse(text).orElseThrow(() -> new AssertionError("not parsed: " + text));
    }

    private static void assertNotAnAddress(String text) {
        assertEquals(Optional.empty(), ModelAddress.parse(text), text);
    }

    @Test
    void noSuffixMeansTheLatestStep() {
        assertEquals(new ModelAddress(AGENT, Optional.empty()), parsed("crucible:///acme/chat/agent"));
    }

    @Test
    void latestSuffixMeansTheLatestStep() {
        assertEquals(new ModelAddress(AGENT, Optional.empty()), parsed("crucible:///acme/chat/agent:latest"));
    }

    @Test
    void stepSuffixNamesTheStep() {
        assertEquals(new ModelAddress(AGENT, Optional.of(12)), parsed("crucible:///acme/chat/agent:step12"));
        assertEquals(Optional.of(0), parsed("crucible:///acme/chat/agent:step0").step());
    }

    @Test
    void versionSuffixIsTheSameAsStep() {
        assertEquals(new ModelAddress(AGENT, Optional.of(3)), parsed("crucible:///acme/chat/agent:v3"));
    }

    @Test
    void anySchemeIsAccepted() {
        assertEquals(AGENT, parsed("wandb-artifact:///acme/chat/agent").coordinates());
        assertEquals(AGENT, parsed("x+y.z:///acme/chat/agent:step1").coordinates());
    }

    @Test
    void rejectsMalformedAddresses() {
        assertNotAnAddress("qwen3-0.6b");
        assertNotAnAddress("acme/chat/agent");
        assertNotAnAddress("crucible://acme/chat/agent");
        assertNotAnAddress("crucible:///acme/chat");
        assertNotAnAddress("crucible:///acme/chat/agent/extra");
        assertNotAnAddress("1crucible:///acme/chat/agent");
        assertNotAnAddress(":///acme/chat/agent");
    }

    @Test
    void rejectsMalformedSuffixes() {
        assertNotAnAddress("crucible:///acme/chat/agent:step");
        assertNotAnAddress("crucible:///acme/chat/agent:stepx");
        assertNotAnAddress("crucible:///acme/chat/agent:v");
        assertNotAnAddress("crucible:///acme/chat/agent:newest");
        assertNotAnAddress("crucible:///acme/chat/agent:step1234567890");
        assertNotAnAddress("crucible:///acme/chat/agent:");
    }

    @Test
    void rejectsSegmentsThatAreNotValidNames() {
        assertNotAnAddress("crucible:///ac:me/chat/agent");
        assertNotAnAddress("crucible:///acme/ch:at/agent");
        assertNotAnAddress("crucible:///acme/chat/my agent");
        assertNotAnAddress("crucible:///acme/my chat/agent");
        assertNotAnAddress("crucible:///ac me/chat/agent");
        assertNotAnAddress("crucible:///acme/chat/" + "a".repeat(129));
    }

    @Test
    void rejectsNullParts() {
        assertThrows(NullPointerException.class, () -> new ModelAddress(null, Optional.empty()));
        assertThrows(NullPointerException.class, () -> new ModelAddress(AGENT, null));
    }
}
