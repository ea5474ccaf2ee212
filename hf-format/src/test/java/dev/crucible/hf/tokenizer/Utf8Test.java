package dev.crucible.hf.tokenizer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Ill-formed UTF-8 becomes one U+FFFD per maximal subpart, as Rust's {@code String::from_utf8_lossy} writes it. */
class Utf8Test {

    @Test
    void wellFormedTextDecodesAsItIs() {
        String text = "a é 中 😀 \u0000";
        assertEquals(text, Utf8.decodeLossy(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void eachMaximalSubpartOfAnIllFormedSequenceIsOneReplacement() {
        // A surrogate's encoding: ED is a lead, but A0 cannot follow it, so three subparts.
        assertEquals("\uFFFD\uFFFD\uFFFD", decode(0xED, 0xA0, 0x80));
        // A truncated four-byte sequence is one subpart; the ASCII after it stands.
        assertEquals("\uFFFDx", decode(0xF0, 0x9F, 0x98, 'x'));
        // Overlong forms, bytes that are never leads, and code points past U+10FFFF.
        assertEquals("\uFFFD\uFFFD", decode(0xC0, 0xAF));
        assertEquals("\uFFFD\uFFFD\uFFFD", decode(0xE0, 0x80, 0xAF));
        assertEquals("\uFFFD\uFFFD", decode(0x80, 0xFF));
        assertEquals("\uFFFD\uFFFD\uFFFD\uFFFD", decode(0xF4, 0x90, 0x80, 0x80));
        assertEquals("\uFFFDé", decode(0xE4, 0xC3, 0xA9));
    }

    private static String decode(int... bytes) {
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            b[i] = (byte) bytes[i];
        }
        return Utf8.decodeLossy(b);
    }
}
