package dev.crucible.domain.object;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Expected digests were computed with Python 3.11 as Weave does ({@code weave/shared/digest.py}):
 * {@code bytes_digest(json.dumps(val, sort_keys=True).encode())}.
 */
class ObjectDigestTest {

    @Test
    void digestsMatchWeaveForSeveralValues() {
        assertEquals("RBNvo1WzZ4oRRq0W9XhknpT7T8If536DEMBg9hyqY4o", ObjectDigest.of(Map.of()));
        assertEquals("dCNOmKYnSYX12vHzasLXiswzlGT5UHA7jAGYkvmCuQs", ObjectDigest.of(null));
        assertEquals("WqdirjgYu3J688ejbUlApbjECpiUUtIwT8lYYz81Tno", ObjectDigest.of("hello"));
        assertEquals("LAzbhJbwLHjggwDUifdLJqILFV6YYdmjXGzZYhfs4uQ", ObjectDigest.of(Map.of("field_schema",
                Map.of("type", "integer", "minimum", 1, "maximum", 5), "unique_among_creators", true)));
        Map<String, Object> unicode = new LinkedHashMap<>();
        unicode.put("name", "caf\u00e9 \uD83D\uDC4D");
        unicode.put("\u00e9", "\u007f\u0001\n\"\\");
        assertEquals("ZqnnDrMMrP2h3V7XJXtzlxSlePDx9Vvx3U31EtTY4EI", ObjectDigest.of(unicode));
        assertEquals("yDYRSce7zIevkei6eZU4VsI8fNT3E9eO0nWK3FeGRcM", ObjectDigest.of(List.of(1.0, 0.1, 1e16, 1e-5,
                0.0001, -0.0, Double.MIN_VALUE, new BigInteger("123456789012345678901234567890"), 1.5e300, 100.0)));
    }

    @Test
    void keyOrderDoesNotChangeTheDigest() {
        Map<String, Object> ab = new LinkedHashMap<>();
        ab.put("a", 1);
        ab.put("b", List.of(true));
        Map<String, Object> ba = new LinkedHashMap<>();
        ba.put("b", List.of(true));
        ba.put("a", 1);
        assertEquals(ObjectDigest.of(ab), ObjectDigest.of(ba));
    }

    @Test
    void isFortyThreeCharactersWithoutDashUnderscoreOrPadding() {
        for (int i = 0; i < 200; i++) {
            String digest = ObjectDigest.of(Map.of("i", i));
            assertEquals(43, digest.length());
            assertTrue(digest.matches("[A-Za-z0-9]{43}"), digest);
        }
    }
}
