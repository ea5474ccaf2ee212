package dev.crucible.hf.tokenizer;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * GPT-2's byte-to-unicode map, which lets byte-level BPE treat every byte as a printable character: bytes
 * {@code !..~}, {@code 0xA1..0xAC} and {@code 0xAE..0xFF} map to the same code point, the other 68 bytes map, in byte
 * order, to U+0100, U+0101, ... Stateless and thread-safe.
 */
public final class ByteLevel {

    private static final char[] BYTE_TO_CHAR = new char[256];
    private static final int[] CHAR_TO_BYTE = new int[256 + 68];

    static {
        Arrays.fill(CHAR_TO_BYTE, -1);
        int next = 256;
        for (int b = 0; b < 256; b++) {
            boolean printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE);
            char c = (char) (printable ? b : next++);
            BYTE_TO_CHAR[b] = c;
            CHAR_TO_BYTE[c] = b;
        }
    }

    private ByteLevel() {
    }

    /** The character standing for a byte (0..255). */
    public static char charOf(int b) {
        return BYTE_TO_CHAR[b & 0xFF];
    }

    /** The text's UTF-8 bytes, one character per byte. */
    public static String encode(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        char[] out = new char[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            out[i] = BYTE_TO_CHAR[bytes[i] & 0xFF];
        }
        return new String(out);
    }

    /**
     * Appends the bytes a byte-level token stands for. As Hugging Face's ByteLevel decoder does, a token containing a
     * character outside the map contributes its own UTF-8 bytes instead.
     */
    public static void decodeInto(String token, ByteArrayOutputStream out) {
        byte[] bytes = new byte[token.length()];
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            int b = c < CHAR_TO_BYTE.length ? CHAR_TO_BYTE[c] : -1;
            if (b < 0) {
                out.writeBytes(token.getBytes(StandardCharsets.UTF_8));
                return;
            }
            bytes[i] = (byte) b;
        }
        out.writeBytes(bytes);
    }
}
