package dev.crucible.hf.tokenizer;

import java.nio.file.Path;
import java.util.OptionalInt;

/**
 * A model's tokenizer, from its {@code tokenizer.json} with its added and special tokens, giving the same ids as
 * Hugging Face tokenizers. {@link #load} makes the one every engine, the runtime and training use, so a prompt's ids
 * never depend on the engine that serves it; tests implement it with small vocabularies of their own.
 *
 * <p>Threading: thread-safe. Ownership: the caller closes it; afterwards every method fails with
 * {@link IllegalStateException}. Errors: an id outside {@code [0, vocabSize())} is an
 * {@link IllegalArgumentException}; nothing here fails on any text.
 */
public interface Tokenizer extends AutoCloseable {

    /**
     * Loads a tokenizer.json of the byte-level BPE kind Qwen2, Qwen3 and Llama 3 ship, in pure Java
     * ({@link BpeEncoder}); nothing native is loaded. The caller owns and closes the result.
     *
     * @throws dev.crucible.hf.ModelFormatException naming the file when it cannot be read or uses a component the
     *                                              encoder does not implement (the message names the component)
     */
    static Tokenizer load(Path tokenizerJson) {
        return BpeTokenizer.load(tokenizerJson);
    }

    /**
     * The ids of {@code text}. Added and special tokens written in the text (for example {@code <|im_start|>}, as a
     * rendered chat template holds them) are recognised as single tokens.
     *
     * @param addSpecialTokens also add what the tokenizer's post-processor adds (for example Llama 3's
     *                         {@code <|begin_of_text|>}); chat templates usually write those themselves
     */
    int[] encode(String text, boolean addSpecialTokens);

    /**
     * The text of {@code ids}, as Hugging Face's {@code decode} gives it: an id past the tokenizer (a model's padded
     * vocabulary) gives no text, a negative id is an {@link IllegalArgumentException}.
     *
     * @param skipSpecialTokens leave special tokens out of the text
     */
    String decode(int[] ids, boolean skipSpecialTokens);

    /** The id of the token written exactly as {@code token} in the vocabulary or added tokens; empty when none. */
    OptionalInt tokenId(String token);

    /**
     * The raw bytes a token stands for (for byte-level BPE, the vocabulary string mapped back through the byte
     * alphabet), as OpenAI's logprobs {@code bytes} carry them. A special token gives the UTF-8 of its content; an id
     * past the tokenizer none.
     */
    byte[] tokenBytes(int id);

    /** Whether {@code id} is a special token (skipped by {@code skipSpecialTokens}). */
    boolean isSpecial(int id);

    /** The number of ids the tokenizer can produce (its vocabulary plus added tokens). */
    int vocabSize();

    @Override
    void close();
}
