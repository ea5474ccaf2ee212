package dev.crucible.engine.djl;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import dev.crucible.engine.spi.EngineException;
import dev.crucible.engine.spi.Tokenizer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.regex.Pattern;

/**
 * A model's tokenizer: Hugging Face tokenizers (Rust, through DJL's JNI binding) for encoding and decoding, and
 * {@link DjlVocabulary} for what the binding does not expose. It is built from {@code tokenizer.json} alone, so the
 * ids are Hugging Face tokenizers' own: DJL reads no {@code tokenizer_config.json} (which would switch on its own
 * lower-casing, accent stripping or space clean-up), and truncation and padding, even where tokenizer.json asks for
 * them, are off.
 *
 * <p>Thread-safe: the native tokenizer encodes and decodes concurrently; a read-write lock keeps {@link #close()} from
 * freeing it under a running call. An unpaired surrogate in the text, which has no UTF-8 (the binding would pass its
 * CESU-8 bytes on), is encoded as U+FFFD.
 */
final class DjlTokenizer implements Tokenizer {

    /** Options for DJL's wrapper; the post-processor's tokens are asked for per call. */
    private static final Map<String, String> OPTIONS = Map.of("addSpecialTokens", "false", "truncation", "false",
            "padding", "false");

    private static final Pattern UNPAIRED_SURROGATE = Pattern.compile("\\p{Cs}");

    private final HuggingFaceTokenizer hf;
    private final DjlVocabulary vocabulary;
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private volatile boolean closed;

    private DjlTokenizer(HuggingFaceTokenizer nativeTokenizer, DjlVocabulary vocabulary) {
        this.hf = nativeTokenizer;
        this.vocabulary = vocabulary;
    }

    /**
     * Loads a tokenizer.json, with DJL held offline (its native library is in the jar).
     *
     * @throws EngineException {@link EngineException.Reason#INVALID_MODEL} naming the file when tokenizer.json cannot
     *                         be read or parsed; {@link EngineException.Reason#RUNTIME_UNAVAILABLE} when the native
     *                         library does not load
     */
    static DjlTokenizer load(Path file) {
        DjlRuntime.holdOffline();
        DjlVocabulary vocabulary;
        try {
            vocabulary = DjlTokenizerJson.read(file);
        } catch (IOException | RuntimeException e) {
            throw new EngineException(EngineException.Reason.INVALID_MODEL, "cannot read " + file + ": "
                    + e.getMessage(), e);
        }
        try (InputStream in = Files.newInputStream(file)) {
            return new DjlTokenizer(HuggingFaceTokenizer.newInstance(in, OPTIONS), vocabulary);
        } catch (ai.djl.engine.EngineException | LinkageError e) {
            throw new EngineException(EngineException.Reason.RUNTIME_UNAVAILABLE,
                    "the Hugging Face tokenizers library of DJL does not load: " + e, e);
        } catch (IOException | RuntimeException e) {
            throw new EngineException(EngineException.Reason.INVALID_MODEL, "Hugging Face tokenizers cannot load "
                    + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public int[] encode(String text, boolean addSpecialTokens) {
        // Java regexes see a surrogate pair as one code point, so \p{Cs} matches only unpaired surrogates.
        String utf16 = UNPAIRED_SURROGATE.matcher(Objects.requireNonNull(text, "text")).replaceAll("\uFFFD");
        lock.readLock().lock();
        try {
            open();
            long[] ids = hf.encode(utf16, addSpecialTokens, false).getIds();
            return Arrays.stream(ids).mapToInt(Math::toIntExact).toArray();
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public String decode(int[] ids, boolean skipSpecialTokens) {
        long[] wide = new long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            wide[i] = vocabulary.check(ids[i]);
        }
        lock.readLock().lock();
        try {
            open();
            return hf.decode(wide, skipSpecialTokens);
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public OptionalInt tokenId(String token) {
        Objects.requireNonNull(token, "token");
        open();
        return vocabulary.id(token);
    }

    @Override
    public byte[] tokenBytes(int id) {
        open();
        return vocabulary.bytes(id);
    }

    @Override
    public boolean isSpecial(int id) {
        open();
        return vocabulary.isSpecial(id);
    }

    @Override
    public int vocabSize() {
        open();
        return vocabulary.size();
    }

    /** Frees the native tokenizer once running calls are done; closing twice is harmless. */
    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            if (!closed) {
                closed = true;
                hf.close();
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    private void open() {
        if (closed) {
            throw new IllegalStateException("the tokenizer is closed");
        }
    }
}
