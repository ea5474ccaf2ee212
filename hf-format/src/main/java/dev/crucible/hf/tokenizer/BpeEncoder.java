package dev.crucible.hf.tokenizer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A pure-Java byte-level BPE encoder for tokenizer.json files of the Qwen2/Qwen3/Llama 3 kind, following Hugging Face
 * tokenizers step by step: added tokens matched leftmost-longest, then per remaining span the normalizer, the split
 * regex, the byte map and lowest-rank-first merges; the post-processor's tokens when special tokens are requested.
 * It is the one encoder every engine serves with ({@link Tokenizer#load}); tests check it against Hugging Face
 * tokenizers itself (the Rust library, a test dependency only). An unpaired surrogate, which has no UTF-8, is encoded
 * as U+FFFD, as Rust strings would hold it.
 *
 * <p>Thread-safe; immutable apart from a bounded cache of encoded pieces.
 */
public final class BpeEncoder {

    /** Pieces kept encoded, as Hugging Face's BPE cache keeps them; a full cache stops taking new ones. */
    private static final int CACHE_CAPACITY = 10_000;
    private static final Pattern UNPAIRED_SURROGATE = Pattern.compile("\\p{Cs}");

    private final EncoderTables tables;
    private final String[] tokens;
    private final Map<String, int[]> cache = new ConcurrentHashMap<>();

    BpeEncoder(EncoderTables tables) {
        this.tables = tables;
        int size = 0;
        for (int id : tables.vocab().values()) {
            size = Math.max(size, id + 1);
        }
        for (int id : tables.addedIds().values()) {
            size = Math.max(size, id + 1);
        }
        tokens = new String[size];
        tables.vocab().forEach((t, id) -> tokens[id] = t);
        tables.addedIds().forEach((t, id) -> tokens[id] = t);
    }

    /** Loads a tokenizer.json; a component this encoder does not implement fails naming it. */
    public static BpeEncoder load(Path tokenizerJson) throws IOException {
        return parse(Files.readString(tokenizerJson));
    }

    /** Parses the text of a tokenizer.json. */
    public static BpeEncoder parse(String json) {
        return new BpeEncoder(TokenizerJsonReader.read(json));
    }

    /** The ids of {@code text}; with {@code addSpecialTokens}, the post-processor's tokens go around them. */
    public int[] encode(String text, boolean addSpecialTokens) {
        // Java regexes see a surrogate pair as one code point, so \p{Cs} matches only unpaired surrogates.
        text = UNPAIRED_SURROGATE.matcher(Objects.requireNonNull(text, "text")).replaceAll("\uFFFD");
        List<Integer> ids = new ArrayList<>();
        if (addSpecialTokens) {
            ids.addAll(tables.prefix());
        }
        String[] added = tables.addedIds().keySet().toArray(String[]::new);
        // Each added token's next occurrence, searched again only once the text before it is consumed: linear in
        // the text for each added token, however many of them the text holds.
        int[] next = new int[added.length];
        for (int i = 0; i < added.length; i++) {
            next[i] = text.indexOf(added[i]);
        }
        int pos = 0;
        while (pos < text.length()) {
            int bestAt = text.length();
            String best = null;
            for (int i = 0; i < added.length; i++) {
                if (next[i] >= 0 && next[i] < pos) {
                    next[i] = text.indexOf(added[i], pos);
                }
                int at = next[i];
                if (at >= 0 && (at < bestAt || (at == bestAt && added[i].length() > best.length()))) {
                    bestAt = at;
                    best = added[i];
                }
            }
            encodeSpan(text.substring(pos, bestAt), ids);
            if (best == null) {
                break;
            }
            ids.add(tables.addedIds().get(best));
            pos = bestAt + best.length();
        }
        if (addSpecialTokens) {
            ids.addAll(tables.suffix());
        }
        return ids.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The text of {@code ids}, optionally without special added tokens; ill-formed UTF-8 becomes U+FFFD as Hugging
     * Face's decoder writes it. An id no token has (a model's vocabulary is often padded past its tokenizer's, so a
     * sampler can draw one) decodes to nothing, as in Hugging Face's decoder.
     *
     * @throws IllegalArgumentException for a negative id
     */
    public String decode(int[] ids, boolean skipSpecialTokens) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int id : ids) {
            if (id < 0) {
                throw new IllegalArgumentException("no token with id " + id);
            }
            if (id >= tokens.length || tokens[id] == null) {
                continue;
            }
            if (!(skipSpecialTokens && tables.specialIds().contains(id))) {
                ByteLevel.decodeInto(tokens[id], out);
            }
        }
        return Utf8.decodeLossy(out.toByteArray());
    }

    /** The number of ids: vocabulary plus added tokens. */
    public int size() {
        return tokens.length;
    }

    /** The id of the added token or vocabulary entry written exactly as {@code token}; empty when none. */
    public OptionalInt tokenId(String token) {
        Integer id = tables.addedIds().get(token);
        if (id == null) {
            id = tables.vocab().get(token);
        }
        return id == null ? OptionalInt.empty() : OptionalInt.of(id);
    }

    /**
     * The bytes token {@code id} stands for: an added token's UTF-8 content, or a vocabulary entry mapped back through
     * the byte-level alphabet; none for an id no token has (see {@link #decode}).
     */
    public byte[] tokenBytes(int id) {
        if (id >= tokens.length || (id >= 0 && tokens[id] == null)) {
            return new byte[0];
        }
        String token = token(id);
        if (tables.addedIds().containsKey(token)) {
            return token.getBytes(StandardCharsets.UTF_8);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteLevel.decodeInto(token, out);
        return out.toByteArray();
    }

    /** Whether {@code id} is a special added token, one {@link #decode} skips on request; an id no token has is not. */
    public boolean isSpecial(int id) {
        if (id >= tokens.length || (id >= 0 && tokens[id] == null)) {
            return false;
        }
        token(id);
        return tables.specialIds().contains(id);
    }

    private String token(int id) {
        if (id < 0 || id >= tokens.length || tokens[id] == null) {
            throw new IllegalArgumentException("no token with id " + id);
        }
        return tokens[id];
    }

    private void encodeSpan(String span, List<Integer> ids) {
        if (span.isEmpty()) {
            return;
        }
        String text = tables.nfc() ? Normalizer.normalize(span, Normalizer.Form.NFC) : span;
        Matcher m = tables.split().matcher(text);
        int last = 0;
        while (m.find()) {
            piece(text.substring(last, m.start()), ids);
            piece(m.group(), ids);
            last = m.end();
        }
        piece(text.substring(last), ids);
    }

    private void piece(String piece, List<Integer> ids) {
        if (piece.isEmpty()) {
            return;
        }
        String word = ByteLevel.encode(piece);
        int[] merged = cache.get(word);
        if (merged == null) {
            merged = tables.merges().apply(word);
            if (cache.size() < CACHE_CAPACITY) {
                cache.putIfAbsent(word, merged);
            }
        }
        for (int id : merged) {
            ids.add(id);
        }
    }
}
