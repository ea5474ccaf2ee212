package dev.crucible.domain.file;

import dev.crucible.kernel.refusal.Outcome;
import dev.crucible.kernel.refusal.Refusal;

/** The name an upload is kept under: the client's file name without any folders it carried. */
public final class FileNames {

    /** The longest name kept, in characters. */
    public static final int MAX_LENGTH = 255;
    /** The name of an upload sent without a file name. */
    public static final String UNNAMED = "upload";

    private FileNames() {
    }

    /**
     * The last path segment of {@code given} ({@code /} and {@code \} both separate), or {@value #UNNAMED} when
     * none was given; refused (naming {@code file}) when longer than {@value #MAX_LENGTH} characters or when it
     * holds control characters.
     */
    public static Outcome<String> of(String given) {
        String name = given == null ? "" : given.substring(Math.max(given.lastIndexOf('/'), given.lastIndexOf('\\')) + 1)
                .strip();
        if (name.isEmpty()) {
            return Outcome.done(UNNAMED);
        }
        if (name.length() > MAX_LENGTH) {
            return Outcome.refused(Refusal.invalid("file",
                    "file name must be at most " + MAX_LENGTH + " characters, got " + name.length()));
        }
        if (name.chars().anyMatch(Character::isISOControl)) {
            return Outcome.refused(Refusal.invalid("file", "file name must not contain control characters"));
        }
        return Outcome.done(name);
    }
}
