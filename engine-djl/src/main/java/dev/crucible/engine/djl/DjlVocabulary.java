package dev.crucible.engine.djl;

import dev.crucible.hf.tokenizer.ByteLevel;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.Map;
import java.util.OptionalInt;

/**
 * What the native tokenizer does not expose: a tokenizer.json's tokens by id, its added and special tokens, and the
 * bytes each token stands for. Immutable and thread-safe.
 */
final class DjlVocabulary {

    private static final char METASPACE = '\u2581';

    private final String[] tokens;
    private final Map<String, Integer> ids;
    private final BitSet added;
    private final BitSet special;
    private final boolean byteLevel;

    /**
     * @param tokens    the token of each id; {@code null} where no token has that id
     * @param ids       every token's id, added tokens winning over a vocabulary entry with the same text
     * @param added     the ids of added tokens, whose text is taken literally
     * @param special   the ids of special added tokens
     * @param byteLevel whether the decoder maps vocabulary strings back to bytes through GPT-2's byte alphabet
     */
    DjlVocabulary(String[] tokens, Map<String, Integer> ids, BitSet added, BitSet special, boolean byteLevel) {
        this.tokens = tokens.clone();
        this.ids = Map.copyOf(ids);
        this.added = (BitSet) added.clone();
        this.special = (BitSet) special.clone();
        this.byteLevel = byteLevel;
    }

    /** One more than the highest id. */
    int size() {
        return tokens.length;
    }

    OptionalInt id(String token) {
        Integer id = ids.get(token);
        return id == null ? OptionalInt.empty() : OptionalInt.of(id);
    }

    boolean isSpecial(int id) {
        return special.get(check(id));
    }

    /**
     * The bytes of a token: an added token's UTF-8; for byte-level BPE the vocabulary string through the byte
     * alphabet; otherwise (SentencePiece-style BPE) the UTF-8 with {@code ▁} as a space and {@code <0xNN>} as the
     * byte it names. An id no token has gives no bytes.
     */
    byte[] bytes(int id) {
        String token = tokens[check(id)];
        if (token == null) {
            return new byte[0];
        }
        if (added.get(id)) {
            return token.getBytes(StandardCharsets.UTF_8);
        }
        if (byteLevel) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(token.length());
            ByteLevel.decodeInto(token, out);
            return out.toByteArray();
        }
        if (token.length() == 6 && token.startsWith("<0x") && token.endsWith(">")) {
            try {
                return new byte[] {(byte) Integer.parseInt(token.substring(3, 5), 16)};
            } catch (NumberFormatException notAByte) {
                // An ordinary token that only looks like a byte token: its text, below.
            }
        }
        return token.replace(METASPACE, ' ').getBytes(StandardCharsets.UTF_8);
    }

    /** Checks that {@code id} is in {@code [0, size())}, else an {@link IllegalArgumentException} naming it. */
    int check(int id) {
        if (id < 0 || id >= tokens.length) {
            throw new IllegalArgumentException("token id " + id + " is outside the vocabulary [0, " + tokens.length
                    + ")");
        }
        return id;
    }
}
