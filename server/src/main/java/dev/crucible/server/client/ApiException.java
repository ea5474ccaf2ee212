package dev.crucible.server.client;

/** The server answered with an error: its HTTP status and the message of its error envelope. */
public final class ApiException extends RuntimeException {

    private final int status;

    public ApiException(int status, String message) {
        super(message);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
