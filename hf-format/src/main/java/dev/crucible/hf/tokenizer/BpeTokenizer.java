package dev.crucible.hf.tokenizer;

import dev.crucible.hf.ModelFormatException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.OptionalInt;

/**
 * A model's tokenizer through the pure-Java byte-level BPE ({@link BpeEncoder}), which follows Hugging Face tokenizers
 * step by step for the Qwen2/Qwen3/Llama 3 kind of tokenizer.json. Thread-safe.
 */
final class BpeTokenizer implements Tokenizer {

    private final BpeEncoder encoder;
    private volatile boolean closed;

    private BpeTokenizer(BpeEncoder encoder) {
        this.encoder = encoder;
    }

    /** Reads a tokenizer.json; see {@link Tokenizer#load}. */
    static BpeTokenizer load(Path file) {
        try {
            return new BpeTokenizer(BpeEncoder.load(file));
        } catch (IOException | RuntimeException e) {
            throw new ModelFormatException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public int[] encode(String text, boolean addSpecialTokens) {
        requireOpen();
        return encoder.encode(text, addSpecialTokens);
    }

    @Override
    public String decode(int[] ids, boolean skipSpecialTokens) {
        requireOpen();
        return encoder.decode(ids, skipSpecialTokens);
    }

    @Override
    public OptionalInt tokenId(String token) {
        requireOpen();
        return encoder.tokenId(token);
    }

    @Override
    public byte[] tokenBytes(int id) {
        requireOpen();
        return encoder.tokenBytes(id);
    }

    @Override
    public boolean isSpecial(int id) {
        requireOpen();
        return encoder.isSpecial(id);
    }

    @Override
    public int vocabSize() {
        requireOpen();
        return encoder.size();
    }

    /** Closing twice is harmless. */
    @Override
    public void close() {
        closed = true;
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the tokenizer is closed");
        }
    }
}
