package dev.crucible.domain.feedback;

import java.util.Locale;
import java.util.Optional;

/** The columns of a feedback row, by the spec's names; {@code weave_ref} and {@code wb_user_id} are aliases. */
public enum FeedbackColumn {
    ID, PROJECT_ID, SVC_REF, SVC_USER_ID, CREATOR, CREATED_AT, FEEDBACK_TYPE, PAYLOAD, ANNOTATION_REF, RUNNABLE_REF,
    CALL_REF, TRIGGER_REF, QUEUE_ID;

    /** The column's name in rows and requests, for example {@code svc_ref}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The column named {@code name} or one of its aliases; empty for anything else. */
    public static Optional<FeedbackColumn> fromWire(String name) {
        return switch (name) {
            case "weave_ref" -> Optional.of(SVC_REF);
            case "wb_user_id" -> Optional.of(SVC_USER_ID);
            default -> {
                for (FeedbackColumn column : values()) {
                    if (column.wireName().equals(name)) {
                        yield Optional.of(column);
                    }
                }
                yield Optional.empty();
            }
        };
    }
}
