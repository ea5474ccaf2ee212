package dev.crucible.engine.onnx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.engine.spi.EngineException;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code -Dcrucible.onnx.blockSize}: the blocks MatMulNBits takes are accepted, anything else is refused by name. */
class OnnxPrecisionTest {

    private static final Set<String> BLOCKS = Set.of("16", "32", "64", "128", "256");

    @AfterEach
    void clear() {
        System.clearProperty(OnnxPrecision.BLOCK_PROPERTY);
        System.clearProperty(OnnxPrecision.PROPERTY);
    }

    @ParameterizedTest
    @ValueSource(strings = {"16", "32", "64", "128", "256", " 128 "})
    void aBlockMatMulNBitsTakesIsUsedAtEveryWidth(String block) {
        System.setProperty(OnnxPrecision.PROPERTY, "int4");
        System.setProperty(OnnxPrecision.BLOCK_PROPERTY, block);
        OnnxPrecision p = OnnxPrecision.fromProperties();
        assertEquals(Integer.parseInt(block.strip()), p.block());
        assertEquals("int4 (block " + block.strip() + ", accuracy_level 4)", p.describe());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "8", "48", "96", "512", "-32", "032", "32.0", "", "abc", "99999999999"})
    void anyOtherBlockIsRefusedNamingTheSetting(String block) {
        assertRefused(block);
    }

    @Property(tries = 200)
    void noOtherStringIsAccepted(@ForAll String block) {
        try {
            if (BLOCKS.contains(block.strip())) {
                assertEquals(Integer.parseInt(block.strip()), withBlock(block).block());
            } else {
                assertRefused(block);
            }
        } finally {
            clear();
        }
    }

    @Property(tries = 200)
    void noOtherNumberIsAccepted(@ForAll int block) {
        try {
            if (BLOCKS.contains(Integer.toString(block))) {
                assertEquals(block, withBlock(Integer.toString(block)).block());
            } else {
                assertRefused(Integer.toString(block));
            }
        } finally {
            clear();
        }
    }

    @Test
    void theDefaultIsTheGroupSizeOf128() {
        assertEquals(128, OnnxPrecision.fromProperties().block());
    }

    private static OnnxPrecision withBlock(String block) {
        System.setProperty(OnnxPrecision.BLOCK_PROPERTY, block);
        return OnnxPrecision.fromProperties();
    }

    private static void assertRefused(String block) {
        EngineException e = assertThrows(EngineException.class, () -> withBlock(block));
        assertTrue(e.getMessage().contains(OnnxPrecision.BLOCK_PROPERTY), e.getMessage());
    }
}
