package dev.crucible.runtime.generation;

import dev.crucible.engine.spi.Tokenizer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalInt;

/**
 * A byte-level tokenizer over a 16-token vocabulary; decoding concatenates bytes and reads them as UTF-8 (malformed
 * bytes become U+FFFD), as byte-level BPE does.
 */
final class FakeTokenizer implements Tokenizer {

    static final int EOS = 0;
    static final int A = 1;
    static final int B = 2;
    static final int SPACE_C = 3;
    /** The first byte of é (C3 A9). */
    static final int E_ACUTE_1 = 4;
    static final int E_ACUTE_2 = 5;
    /** The first two bytes of € (E2 82 AC). */
    static final int EURO_12 = 6;
    static final int EURO_3 = 7;
    static final int STOP = 8;
    static final int SPECIAL = 9;
    static final int D = 10;
    static final int EXTRA_EOS = 11;
    static final int VOCAB = 16;

    private static final List<byte[]> BYTES = List.of(utf8("<eos>"), utf8("a"), utf8("b"), utf8(" c"),
            new byte[] {(byte) 0xC3}, new byte[] {(byte) 0xA9}, new byte[] {(byte) 0xE2, (byte) 0x82},
            new byte[] {(byte) 0xAC}, utf8("STOP"), utf8("<|x|>"), utf8("d"), utf8("<end>"), utf8("e"), utf8("f"),
            utf8("g"), utf8("h"));

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public int[] encode(String text, boolean addSpecialTokens) {
        throw new UnsupportedOperationException("not needed by generation");
    }

    @Override
    public String decode(int[] ids, boolean skipSpecialTokens) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int id : ids) {
            if (!(skipSpecialTokens && isSpecial(id))) {
                out.writeBytes(tokenBytes(id));
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Override
    public OptionalInt tokenId(String token) {
        return OptionalInt.empty();
    }

    @Override
    public byte[] tokenBytes(int id) {
        if (id < 0 || id >= VOCAB) {
            throw new IllegalArgumentException("id " + id);
        }
        return BYTES.get(id).clone();
    }

    @Override
    public boolean isSpecial(int id) {
        return id == EOS || id == SPECIAL || id == EXTRA_EOS;
    }

    @Override
    public int vocabSize() {
        return VOCAB;
    }

    @Override
    public void close() {
    }
}
