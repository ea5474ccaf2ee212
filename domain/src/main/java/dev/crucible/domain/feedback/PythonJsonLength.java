package dev.crucible.domain.feedback;

import dev.crucible.domain.common.PythonNumbers;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * The length of Python's {@code json.dumps(value)} with its defaults ({@code ensure_ascii=True}, separators
 * {@code ", "} and {@code ": "}, {@code allow_nan=True}), without building the text: Weave's payload-size limit is
 * measured that way. A character outside printable ASCII counts 6 ({@code \}{@code uXXXX}), so one outside the
 * basic plane (a surrogate pair) counts 12; numbers count as {@link PythonNumbers#repr} writes them.
 */
public final class PythonJsonLength {

    private PythonJsonLength() {
    }

    /**
     * The length for a JSON-shaped value: {@link Map} with string keys, {@link List}, {@link String},
     * {@link Number}, {@link Boolean} or null. Iterative, so deep nesting cannot overflow the stack.
     *
     * @throws IllegalArgumentException for any other type, which a JSON parser never produces
     */
    public static long of(Object value) {
        long total = 0;
        Deque<Object> pending = new ArrayDeque<>();
        total += push(pending, value);
        while (!pending.isEmpty()) {
            Object next = pending.pop();
            switch (next) {
                case Map<?, ?> map -> {
                    total += 2 + separators(map.size());
                    for (Map.Entry<?, ?> entry : map.entrySet()) {
                        if (!(entry.getKey() instanceof String key)) {
                            throw new IllegalArgumentException("JSON object keys must be strings, got "
                                    + entry.getKey());
                        }
                        total += string(key) + 2 + push(pending, entry.getValue());
                    }
                }
                case List<?> list -> {
                    total += 2 + separators(list.size());
                    for (Object item : list) {
                        total += push(pending, item);
                    }
                }
                case String s -> total += string(s);
                case Boolean b -> total += b ? 4 : 5;
                case Number n -> total += PythonNumbers.repr(n).length();
                default -> throw new IllegalArgumentException("not a JSON value: " + next.getClass().getName());
            }
        }
        return total;
    }

    /** Queues a value for counting, or counts a null at once (the deque holds no nulls). */
    private static long push(Deque<Object> pending, Object value) {
        if (value == null) {
            return 4;
        }
        pending.push(value);
        return 0;
    }

    private static long separators(int items) {
        return items == 0 ? 0 : 2L * (items - 1);
    }

    /** A string with its quotes, escaped as {@code json.dumps} does with {@code ensure_ascii=True}. */
    static long string(String s) {
        long length = 2;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f') {
                length += 2;
            } else if (c < 0x20 || c > 0x7e) {
                length += 6;
            } else {
                length += 1;
            }
        }
        return length;
    }
}
