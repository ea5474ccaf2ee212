package dev.crucible.runtime.structured;

import dev.crucible.engine.spi.Tokenizer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

/** A byte-level tokenizer over given token byte strings; {@code special} ids are special tokens. */
final class ByteTokenizer implements Tokenizer {

    private final List<byte[]> tokens;
    private final Set<Integer> special;

    ByteTokenizer(List<byte[]> tokens, Set<Integer> special) {
        this.tokens = tokens;
        this.special = special;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public int[] encode(String text, boolean addSpecialTokens) {
        throw new UnsupportedOperationException("not needed");
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
