package dev.crucible.adapters.dataset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The guard as the client's resolver: it answers with the addresses it checked, or refuses naming none of them. */
class TrainingDataHostsTest {

    private final TrainingDataHosts guarded = new TrainingDataHosts(false);
    private final TrainingDataHosts open = new TrainingDataHosts(true);

    @Test
    void aNameThatResolvesToLoopbackIsRefusedWithoutSayingWhereItResolved() throws UnknownHostException {
        TrainingDataHosts.Refused refused = assertThrows(TrainingDataHosts.Refused.class,
                () -> guarded.resolve("localhost"));
        for (InetAddress address : InetAddress.getAllByName("localhost")) {
            assertFalse(refused.getMessage().contains(address.getHostAddress()), refused.getMessage());
        }
        assertTrue(refused.getMessage().contains("'localhost'") && refused.getMessage()
                .contains("crucible.training-data.allow-private-hosts"), refused.getMessage());
    }

    @Test
    void theAddressesCheckedAreTheAddressesAnswered() throws UnknownHostException {
        assertEquals(List.of(InetAddress.getByName("127.0.0.1")), List.of(open.resolve("127.0.0.1")));
        assertEquals(List.of(InetAddress.getByName("::1")), List.of(open.resolve("[::1]")));
        assertEquals(List.of(InetAddress.getByName("8.8.8.8")), List.of(guarded.resolve("8.8.8.8")), "no lookup");
        assertEquals("example.org", guarded.resolveCanonicalHostname("example.org"), "no reverse lookup");
    }

    @Test
    void specialPurposeLiteralsAreRefusedAndAmbiguousOnesEvenWhenPrivateHostsAreAllowed() {
        for (String url : List.of("http://192.0.0.192/x", "http://[::ffff:127.0.0.1]/x", "http://[::127.0.0.1]/x",
                "http://[64:ff9b::a9fe:a9fe]/x", "http://198.18.0.1/x", "http://[fd00::1]/x", "http://0.0.0.0/x")) {
            Optional<String> refusal = guarded.refusal(URI.create(url));
            assertTrue(refusal.isPresent() && refusal.get().contains("special-purpose"), url + " -> " + refusal);
            assertEquals(Optional.empty(), open.refusal(URI.create(url)), url);
        }
        for (String url : List.of("http://0177.0.0.1/x", "http://2130706433/x")) {
            assertTrue(guarded.refusal(URI.create(url)).orElseThrow().contains("four decimal numbers"), url);
            assertTrue(open.refusal(URI.create(url)).orElseThrow().contains("four decimal numbers"), url);
        }
        assertEquals(Optional.of("the URL has no host"), guarded.refusal(URI.create("http://0x7f.1/x")));
    }
}
