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
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;

/**
 * A pure-Java byte-level BPE encoder for tokenizer.json files of the Qwen2/Qwen3/Llama 3 kind, following Hugging Face
 * tokenizers step by step: added tokens matched leftmost-longest, then per remaining span the normalizer, the split
 * regex, the byte map and lowest-rank-first merges; the post-processor's tokens when special tokens are requested.
 * It is the independent reference that checks written tokenizers; serving uses the native tokenizer.
 *
 * <p>Thread-safe; immutable apart from an internal cache of encoded pieces.
 */
public final class BpeEncoder {

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
        List<Integer> ids = new ArrayList<>();
        if (addSpecialTokens) {
            ids.addAll(tables.prefix());
        }
        int pos = 0;
        while (pos < text.length()) {
            int bestAt = text.length();
            String best = null;
            for (String added : tables.addedIds().keySet()) {
                int at = text.indexOf(added, pos);
                if (at >= 0 && (at < bestAt || (at == bestAt && added.length() > best.length()))) {
                    bestAt = at;
                    best = added;
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

    /** The text of {@code ids}, optionally without special added tokens; invalid UTF-8 becomes U+FFFD. */
    public String decode(int[] ids, boolean skipSpecialTokens) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int id : ids) {
            if (id < 0 || id >= tokens.length || tokens[id] == null) {
                throw new IllegalArgumentException("no token with id " + id);
            }
            if (!(skipSpecialTokens && tables.specialIds().contains(id))) {
                ByteLevel.decodeInto(tokens[id], out);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
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
     * the byte-level alphabet.
     */
    public byte[] tokenBytes(int id) {
        String token = token(id);
        if (tables.addedIds().containsKey(token)) {
            return token.getBytes(StandardCharsets.UTF_8);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteLevel.decodeInto(token, out);
        return out.toByteArray();
    }

    /** Whether {@code id} is a special added token, one {@link #decode} skips on request. */
    public boolean isSpecial(int id) {
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
        for (int id : cache.computeIfAbsent(ByteLevel.encode(piece), word -> BpeMerges.apply(word, tables))) {
            ids.add(id);
        }
    }
}
