package dev.crucible.domain.dataset;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** The form of a dataset's rows. */
public enum DatasetKind {
    /** One chat per row: the request's messages and the answer, of answers whose feedback passes the predicate. */
    SFT,
    /** One DPO pair per input: the best- and the worst-scored answer to the same messages. */
    PREFERENCE,
    /** One trajectory group per input: every rewarded answer to the same messages. */
    RL;

    /** The name on the wire: {@code sft}, {@code preference}, {@code rl}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The kind named {@code text} on the wire, if any. */
    public static Optional<DatasetKind> of(String text) {
        return Arrays.stream(values()).filter(k -> k.wireName().equals(text)).findFirst();
    }
}
