package dev.crucible.kernel.wire;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A constant with a name on the wire, an enum's usually: by default its Java name in lower case, or a name of its
 * own where the wire spells it otherwise; found back from that name by {@link #find}.
 */
public interface WireName {

    /** The constant's Java name; an enum has it already. */
    String name();

    /** The name on the wire. */
    default String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The one of {@code values} whose wire name is exactly {@code text}; empty for anything else. */
    static <T extends WireName> Optional<T> find(T[] values, String text) {
        return Arrays.stream(values).filter(value -> value.wireName().equals(text)).findFirst();
    }

    /** The wire names of {@code values}, quoted and comma-separated, for messages. */
    static String quoted(WireName[] values) {
        return Arrays.stream(values).map(value -> "'" + value.wireName() + "'").collect(Collectors.joining(", "));
    }
}
