package dev.crucible.domain.object;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class VersionSelectorTest {

    @Test
    void readsLatestIndexAliasesAndDigests() {
        assertEquals(new VersionSelector.Latest(), VersionSelector.parse("latest"));
        assertEquals(new VersionSelector.Index(0), VersionSelector.parse("v0"));
        assertEquals(new VersionSelector.Index(12), VersionSelector.parse("v012"));
        assertEquals(new VersionSelector.Digest("LAzbhJbwLHjggwDUifdLJqILFV6YYdmjXGzZYhfs4uQ"),
                VersionSelector.parse("LAzbhJbwLHjggwDUifdLJqILFV6YYdmjXGzZYhfs4uQ"));
    }

    @Test
    void anythingElseIsADigestThatMayFindNothing() {
        assertEquals(new VersionSelector.Digest("v"), VersionSelector.parse("v"));
        assertEquals(new VersionSelector.Digest("v-1"), VersionSelector.parse("v-1"));
        assertEquals(new VersionSelector.Digest("v1x"), VersionSelector.parse("v1x"));
        assertEquals(new VersionSelector.Digest("v1234567890"), VersionSelector.parse("v1234567890"));
        assertEquals(new VersionSelector.Digest("Latest"), VersionSelector.parse("Latest"));
        assertEquals(new VersionSelector.Digest(""), VersionSelector.parse(""));
    }

    @Test
    void indexIsNeverNegative() {
        assertThrows(IllegalArgumentException.class, () -> new VersionSelector.Index(-1));
    }
}
