package dev.crucible.engine.spi;

import java.util.OptionalInt;

/**
 * A model's tokenizer, from its {@code tokenizer.json} with its added and special tokens, giving the same ids as
 * Hugging Face tokenizers. Made by {@link EngineProvider#loadTokenizer}.
 *
 * <p>Threading: thread-safe. Ownership: the caller closes it; afterwards every method fails with
 * {@link IllegalStateException}. Errors: an id outside {@code [0, vocabSize())} is an
 * {@link IllegalArgumentException}; nothing here fails on any text.
 */
public interface Tokenizer extends AutoCloseable {

    /**
     * The ids of {@code text}. Added and special tokens written in the text (for example {@code <|im_start|>}, as a
     * rendered chat template holds them) are recognised as single tokens.
     *
     * @param addSpecialTokens also add what the tokenizer's post-processor adds (for example Llama 3's
     *                         {@code <|begin_of_text|>}); chat templates usually write those themselves
     */
    int[] encode(String text, boolean addSpecialTokens);

    /**
     * The text of {@code ids}, as Hugging Face's {@code decode} gives it.
     *
     * @param skipSpecialTokens leave special tokens out of the text
     */
    String decode(int[] ids, boolean skipSpecialTokens);

    /** The id of the token written exactly as {@code token} in the vocabulary or added tokens; empty when none. */
    OptionalInt tokenId(String token);

    /**
     * The raw bytes a token stands for (for byte-level BPE, the vocabulary string mapped back through the byte
     * alphabet), as OpenAI's logprobs {@code bytes} carry them. A special token gives the UTF-8 of its content.
     */
    byte[] tokenBytes(int id);

    /** Whether {@code id} is a special token (skipped by {@code skipSpecialTokens}). */
    boolean isSpecial(int id);

    /** The number of ids the tokenizer can produce (its vocabulary plus added tokens). */
    int vocabSize();

    @Override
    void close();
}
