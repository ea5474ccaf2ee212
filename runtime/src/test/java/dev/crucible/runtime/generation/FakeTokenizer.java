package dev.crucible.runtime.generation;

import static dev.crucible.testsupport.tokenizer.ByteTokenizer.utf8;

import dev.crucible.testsupport.tokenizer.ByteTokenizer;
import java.util.List;
import java.util.Set;

/**
 * The generation tests' byte-level 16-token vocabulary with its ids named; {@code <eos>}, {@code <|x|>} and
 * {@code <end>} are special.
 */
public class FakeTokenizer extends ByteTokenizer {

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
    public static final int VOCAB = 16;

    private static final List<byte[]> BYTES = List.of(utf8("<eos>"), utf8("a"), utf8("b"), utf8(" c"),
            new byte[] {(byte) 0xC3}, new byte[] {(byte) 0xA9}, new byte[] {(byte) 0xE2, (byte) 0x82},
            new byte[] {(byte) 0xAC}, utf8("STOP"), utf8("<|x|>"), utf8("d"), utf8("<end>"), utf8("e"), utf8("f"),
            utf8("g"), utf8("h"));

    FakeTokenizer() {
        super(BYTES, Set.of(EOS, SPECIAL, EXTRA_EOS));
    }
}
