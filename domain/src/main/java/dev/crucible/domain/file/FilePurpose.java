package dev.crucible.domain.file;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/** What a file was uploaded for, with OpenAI's names; an SFT dataset is a {@link #FINE_TUNE} file. */
public enum FilePurpose {
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

    public String wireName() {
        return wireName;
    }

    /** The purpose named {@code text} exactly as OpenAI spells it; anything else is empty. */
    public static Optional<FilePurpose> parse(String text) {
        return Arrays.stream(values()).filter(p -> p.wireName.equals(text)).findFirst();
    }

    /** The accepted names, quoted and comma-separated, for messages. */
    public static String names() {
        return Arrays.stream(values()).map(p -> "'" + p.wireName + "'").collect(Collectors.joining(", "));
    }
}
