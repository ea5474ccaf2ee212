package dev.crucible.application.primitives;

/**
 * Whose fault a failed operation was, as a future's failure reports it: the request's ({@code user}: bad input found
 * when it ran) or the server's (the engine failed, or the process that held the run's state ended).
 */
public enum FailureCategory {
    USER, SERVER;

    /** The wire name: {@code user} or {@code server}. */
    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
