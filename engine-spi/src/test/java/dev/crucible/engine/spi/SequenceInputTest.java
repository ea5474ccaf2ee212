package dev.crucible.engine.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SequenceInputTest {

    private static final KvCache CACHE = new KvCache() {
        @Override
        public int capacity() {
            return 8;
        }

        @Override
        public int length() {
            return 3;
        }

        @Override
        public void close() {
        }
    };

    @Test
    void rejectsAnEmptyTokenList() {
        var e = assertThrows(IllegalArgumentException.class, () -> SequenceInput.of(CACHE));
        assertTrue(e.getMessage().startsWith("tokenIds"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new SequenceInput(CACHE, null, false));
        assertThrows(NullPointerException.class, () -> SequenceInput.of(null, 1));
    }

    @Test
    void copiesTheTokenIdsInAndOut() {
        int[] ids = {4, 5, 6};
        SequenceInput in = SequenceInput.of(CACHE, ids);
        ids[0] = 99;
        in.tokenIds()[1] = 99;

        assertArrayEquals(new int[] {4, 5, 6}, in.tokenIds());
        assertEquals(3, in.length());
        assertEquals(6, in.tokenId(2));
    }

    @Test
    void aSequenceRunsTheBaseModelUnlessGivenAnAdapter() {
        LoraAdapter adapter = new LoraAdapter() {
            @Override
            public int rank() {
                return 8;
            }

            @Override
            public double scaling() {
                return 2;
            }

            @Override
            public void close() {
            }
        };

        assertEquals(null, SequenceInput.of(CACHE, 1, 2).adapter());
        assertEquals(null, new SequenceInput(CACHE, new int[] {1}, true).adapter());
        assertEquals(adapter, SequenceInput.of(CACHE, adapter, 1, 2).adapter());
        SequenceInput adapted = new SequenceInput(CACHE, new int[] {7, 8}, true).withAdapter(adapter);
        assertEquals(adapter, adapted.adapter());
        assertArrayEquals(new int[] {7, 8}, adapted.tokenIds());
        assertTrue(adapted.allPositions());
    }

    @Test
    void aCacheReportsTheRoomLeft() {
        assertEquals(5, CACHE.remaining());
    }

    @Test
    void logitsWithoutPositionsHaveAnEmptyList() {
        SequenceLogits logits = new SequenceLogits(new float[] {1f}, List.of());
        assertEquals(List.of(), logits.positions());
        assertThrows(NullPointerException.class, () -> new SequenceLogits(null, List.of()));
    }
}
