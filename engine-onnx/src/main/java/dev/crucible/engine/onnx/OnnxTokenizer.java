package dev.crucible.engine.onnx;

import dev.crucible.engine.spi.EngineException;
import dev.crucible.engine.spi.Tokenizer;
import dev.crucible.hf.tokenizer.BpeEncoder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.OptionalInt;

/**
 * A model's tokenizer through hf-format's pure-Java byte-level BPE ({@link BpeEncoder}), which follows Hugging Face
 * tokenizers step by step for the Qwen2/Qwen3/Llama 3 kind of tokenizer.json; nothing native is loaded. Thread-safe.
 */
final class OnnxTokenizer implements Tokenizer {

    private final BpeEncoder encoder;
    private volatile boolean closed;

    private OnnxTokenizer(BpeEncoder encoder) {
        this.encoder = encoder;
    }

    /**
     * Reads a tokenizer.json.
     *
     * @throws EngineException {@link EngineException.Reason#INVALID_MODEL} naming the file when it cannot be read or
     *                         uses a component the encoder does not implement
     */
    static OnnxTokenizer load(Path file) {
        try {
            return new OnnxTokenizer(BpeEncoder.load(file));
        } catch (IOException | RuntimeException e) {
            throw new EngineException(EngineException.Reason.INVALID_MODEL, "cannot read " + file + ": "
                    + e.getMessage(), e);
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

    @Override
    public void close() {
        closed = true;
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("tokenizer is closed");
        }
    }
}
