package dev.crucible.application.process;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What one {@code crucible serve} process does when several share a database ({@code --role}, env
 * {@code CRUCIBLE_ROLE}): {@link #ALL} serves the HTTP API and trains (one process, the default); {@link #API} serves
 * the HTTP API and never trains; {@link #WORKER} claims training jobs and serves only its health and metrics routes.
 */
public enum ProcessRole {
    ALL, API, WORKER;

    /** Whether this process answers the HTTP API (every route, not only health and metrics). */
    public boolean servesApi() {
        return switch (this) {
            case ALL, API -> true;
            case WORKER -> false;
        };
    }

    /** Whether this process claims training jobs from the shared queue. */
    public boolean runsJobs() {
        return switch (this) {
            case ALL, WORKER -> true;
            case API -> false;
        };
    }

    /**
     * Whether this process holds the training primitives' runs (Tinker's API) in its own memory: {@link #ALL} accepts
     * and runs their operations itself; {@link #API} only writes them to the log, for the {@link #WORKER} that claims
     * the run ({@code dev.crucible.application.primitives.RunClaimer}).
     */
    public boolean holdsRunsItself() {
        return this == ALL;
    }

    /** Whether this process claims training runs whose operations an {@code api} process queued. */
    public boolean claimsRuns() {
        return this == WORKER;
    }

    /** The name on the command line and in the environment. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The role named {@code name} (any case, surrounding blanks ignored).
     *
     * @throws IllegalArgumentException naming the known roles, for a configuration error found at start-up
     */
    public static ProcessRole parse(String name) {
        String wanted = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
        for (ProcessRole role : values()) {
            if (role.wireName().equals(wanted)) {
                return role;
            }
        }
        throw new IllegalArgumentException("role must be one of " + Arrays.stream(values()).map(ProcessRole::wireName)
                .collect(Collectors.joining(", ")) + ", got '" + name + "'");
    }
}
