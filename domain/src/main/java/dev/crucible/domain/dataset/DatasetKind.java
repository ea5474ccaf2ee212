package dev.crucible.domain.dataset;

import dev.crucible.kernel.wire.WireName;
import java.util.Optional;

/** The form of a dataset's rows; on the wire {@code sft}, {@code preference}, {@code rl}. */
public enum DatasetKind implements WireName {
    /** One chat per row: the request's messages and the answer, of answers whose feedback passes the predicate. */
    SFT,
    /** One DPO pair per input: the best- and the worst-scored answer to the same messages. */
    PREFERENCE,
    /** One trajectory group per input: every rewarded answer to the same messages. */
    RL;

    /** The kind named {@code text} on the wire, if any. */
    public static Optional<DatasetKind> of(String text) {
        return WireName.find(values(), text);
    }
}
