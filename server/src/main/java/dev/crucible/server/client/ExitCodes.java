package dev.crucible.server.client;

/**
 * What the client commands exit with, so scripts can branch on it. Picocli's own usage errors exit with
 * {@link #USAGE}.
 */
public final class ExitCodes {

    /** The command did what it was asked; a followed job completed. */
    public static final int OK = 0;
    /** A followed training job ended FAILED or CANCELLED. */
    public static final int JOB_FAILED = 1;
    /** The command line was wrong (picocli's code for a parameter error). */
    public static final int USAGE = 2;
    /** The server refused the request (an HTTP 4xx or 5xx); its message is printed. */
    public static final int API_ERROR = 3;
    /** The server could not be reached, or a local file could not be read or written. */
    public static final int IO_ERROR = 4;

    private ExitCodes() {
    }
}
