package dev.crucible.hf.tokenizer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ByteLevelTest {

    @Test
    void mapsEveryByteToADistinctPrintableCharacter() {
        Set<Character> seen = new HashSet<>();
        for (int b = 0; b < 256; b++) {
            seen.add(ByteLevel.charOf(b));
        }
        assertEquals(256, seen.size());
        assertEquals('A', ByteLevel.charOf('A'));
        assertEquals('\u0120', ByteLevel.charOf(' '));
        assertEquals('\u010A', ByteLevel.charOf('\n'));
        assertEquals('\u0100', ByteLevel.charOf(0));
        assertEquals('\u0143', ByteLevel.charOf(0xAD));
    }

    @Test
    void decodingUndoesEncoding() {
        String text = "héllo wörld 😀\n\t\u0000";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteLevel.decodeInto(ByteLevel.encode(text), out);
        assertArrayEquals(text.getBytes(StandardCharsets.UTF_8), out.toByteArray());
    }

    @Test
    void aTokenOutsideTheMapDecodesToItsOwnBytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteLevel.decodeInto("é\u4F60", out);
        assertEquals("é\u4F60", out.toString(StandardCharsets.UTF_8));
    }
}
