package dev.crucible.runtime.generation;

import dev.crucible.engine.spi.Tokenizer;
import java.util.OptionalInt;

/** A {@link FakeTokenizer} to override one method of in a test. */
class FakeTokenizerDelegate implements Tokenizer {

    private final FakeTokenizer inner = new FakeTokenizer();

    @Override
    public int[] encode(String text, boolean addSpecialTokens) {
        return inner.encode(text, addSpecialTokens);
    }

    @Override
    public String decode(int[] ids, boolean skipSpecialTokens) {
        return inner.decode(ids, skipSpecialTokens);
    }

    @Override
    public OptionalInt tokenId(String token) {
        return inner.tokenId(token);
    }

    @Override
    public byte[] tokenBytes(int id) {
        return inner.tokenBytes(id);
    }

    @Override
    public boolean isSpecial(int id) {
        return inner.isSpecial(id);
    }

    @Override
    public int vocabSize() {
        return inner.vocabSize();
    }

    @Override
    public void close() {
    }
}
