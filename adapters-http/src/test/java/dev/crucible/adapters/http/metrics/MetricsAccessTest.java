package dev.crucible.adapters.http.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MetricsAccessTest {

    @Test
    void keyAsksEveryCallerForAKeyAndOpenAsksNone() {
        assertFalse(MetricsAccess.KEY.allows(false));
        assertTrue(MetricsAccess.KEY.allows(true));
        assertTrue(MetricsAccess.OPEN.allows(false));
        assertEquals(MetricsAccess.KEY, MetricsAccess.parse(" Key "));
        assertEquals(MetricsAccess.OPEN, MetricsAccess.parse("open"));
    }

    @Test
    void theOldLoopbackValueStopsTheServerSayingWhy() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MetricsAccess.parse("loopback"));
        assertTrue(e.getMessage().contains("reverse proxy") && e.getMessage().contains("key"), e.getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> MetricsAccess.parse("anyone")).getMessage()
                .contains("must be key or open"));
    }
}
