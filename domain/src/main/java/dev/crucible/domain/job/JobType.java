package dev.crucible.domain.job;

/** The two kinds of training job; {@link #wireName()} is how the API writes them. */
public enum JobType {
    RL, SFT;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
