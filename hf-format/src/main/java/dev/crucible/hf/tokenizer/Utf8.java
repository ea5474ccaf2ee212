package dev.crucible.hf.tokenizer;

/**
 * UTF-8 to text as Rust's {@code String::from_utf8_lossy} (and so Hugging Face's decoders) does it: each maximal
 * subpart of an ill-formed sequence becomes one U+FFFD, the Unicode recommended practice. The JDK's decoder counts
 * some ill-formed sequences (surrogate code points, truncated ones) differently. Stateless and thread-safe.
 */
final class Utf8 {

    private static final char REPLACEMENT = '\uFFFD';

    private Utf8() {
    }

    static String decodeLossy(byte[] bytes) {
        StringBuilder out = new StringBuilder(bytes.length);
        int i = 0;
        while (i < bytes.length) {
            int b = bytes[i] & 0xFF;
            if (b < 0x80) {
                out.append((char) b);
                i++;
                continue;
            }
            int width = b >= 0xC2 && b <= 0xDF ? 2 : b >= 0xE0 && b <= 0xEF ? 3 : b >= 0xF0 && b <= 0xF4 ? 4 : 0;
            int start = i++;
            int codePoint = b & (width == 2 ? 0x1F : width == 3 ? 0x0F : 0x07);
            boolean valid = width > 0;
            for (int k = 1; valid && k < width; k++) {
                int next = i < bytes.length ? bytes[i] & 0xFF : -1;
                if (!(k == 1 ? secondByteFits(b, next) : next >= 0x80 && next <= 0xBF)) {
                    valid = false;
                } else {
                    codePoint = codePoint << 6 | (next & 0x3F);
                    i++;
                }
            }
            if (valid) {
                out.appendCodePoint(codePoint);
            } else {
                // The bytes consumed so far are one maximal subpart; the byte that broke it is read again.
                out.append(REPLACEMENT);
                i = Math.max(i, start + 1);
            }
        }
        return out.toString();
    }

    /** The second byte's range after a lead byte: excludes overlong forms, surrogates and code points past U+10FFFF. */
    private static boolean secondByteFits(int lead, int next) {
        return switch (lead) {
            case 0xE0 -> next >= 0xA0 && next <= 0xBF;
            case 0xED -> next >= 0x80 && next <= 0x9F;
            case 0xF0 -> next >= 0x90 && next <= 0xBF;
            case 0xF4 -> next >= 0x80 && next <= 0x8F;
            default -> next >= 0x80 && next <= 0xBF;
        };
    }
}
