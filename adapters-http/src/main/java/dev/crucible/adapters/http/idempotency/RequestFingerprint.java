package dev.crucible.adapters.http.idempotency;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A SHA-256 digest of a request's parsed parameters, equal for requests that ask the same thing: object members are
 * digested in key order (so key order and whitespace do not matter), each value with its type and length, so that
 * no two different values digest alike by concatenation.
 */
public final class RequestFingerprint {

    private RequestFingerprint() {
    }

    /** The digest of {@code parts} (plain JSON values: maps, lists, strings, numbers, booleans, null), hex. */
    public static String of(Object... parts) {
        MessageDigest digest = sha256();
        for (Object part : parts) {
            feed(digest, part);
        }
        return hex(digest);
    }

    /** What {@code digest} has taken in so far, finished, as lower-case hex (the digest is reset). */
    public static String hex(MessageDigest digest) {
        return HexFormat.of().formatHex(digest.digest());
    }

    /** A new SHA-256 digest, for content digested as it streams. */
    public static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    private static void feed(MessageDigest digest, Object value) {
        switch (value) {
            case null -> digest.update((byte) 'n');
            case Map<?, ?> map -> {
                tagged(digest, '{', Integer.toString(map.size()));
                new TreeMap<>(map).forEach((key, member) -> {
                    feed(digest, key);
                    feed(digest, member);
                });
            }
            case List<?> list -> {
                tagged(digest, '[', Integer.toString(list.size()));
                list.forEach(item -> feed(digest, item));
            }
            case String text -> tagged(digest, 's', text);
            case Boolean bool -> tagged(digest, 'b', bool.toString());
            case Number number -> tagged(digest, '#', number.toString());
            default -> throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
        }
    }

    private static void tagged(MessageDigest digest, char tag, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        digest.update((byte) tag);
        digest.update(Integer.toString(bytes.length).getBytes(StandardCharsets.US_ASCII));
        digest.update((byte) ':');
        digest.update(bytes);
    }
}
