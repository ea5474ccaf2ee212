package dev.crucible.testsupport.tokenizer;

import dev.crucible.hf.tokenizer.Tokenizer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

/**
 * A byte-level tokenizer for tests over given token byte strings; {@code special} ids are special tokens. Decoding
 * concatenates bytes and reads them as UTF-8 (malformed bytes become U+FFFD), as byte-level BPE does. It does not
 * encode. Open for a test that overrides one method; stateless otherwise.
 */
public class ByteTokenizer implements Tokenizer {

    private final List<byte[]> tokens;
    private final Set<Integer> special;

    public ByteTokenizer(List<byte[]> tokens, Set<Integer> special) {
        this.tokens = List.copyOf(tokens);
        this.special = Set.copyOf(special);
    }

    public static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public int[] encode(String text, boolean addSpecialTokens) {
        throw new UnsupportedOperationException("this test tokenizer does not encode");
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
        if (id < 0 || id >= tokens.size()) {
            throw new IllegalArgumentException("id " + id);
        }
        return tokens.get(id).clone();
    }

    @Override
    public boolean isSpecial(int id) {
        return special.contains(id);
    }

    @Override
    public int vocabSize() {
        return tokens.size();
    }

    @Override
    public void close() {
    }
}
