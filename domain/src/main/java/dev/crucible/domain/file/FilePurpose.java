package dev.crucible.domain.file;

import dev.crucible.kernel.wire.WireName;
import java.util.Optional;

/** What a file was uploaded for, with OpenAI's names; an SFT dataset is a {@link #FINE_TUNE} file. */
public enum FilePurpose implements WireName {
    ASSISTANTS("assistants"),
    BATCH("batch"),
    FINE_TUNE("fine-tune"),
    VISION("vision"),
    USER_DATA("user_data"),
    EVALS("evals");

    private final String wireName;

    FilePurpose(String wireName) {
        this.wireName = wireName;
    }

    @Override
    public String wireName() {
        return wireName;
    }

    /** The purpose named {@code text} exactly as OpenAI spells it; anything else is empty. */
    public static Optional<FilePurpose> parse(String text) {
        return WireName.find(values(), text);
    }

    /** The accepted names, quoted and comma-separated, for messages. */
    public static String names() {
        return WireName.quoted(values());
    }
}
