package dev.crucible.adapters.http.error;

import dev.crucible.kernel.refusal.Refusal;
import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which failures of broken infrastructure the client should hear about as more than a bare 500: the database out of
 * reach (a connection refused or lost, the pool's wait for a connection timed out, PostgreSQL shutting down or
 * starting up) is a 503 with {@code Retry-After}, and a full disk (the data directory's "No space left on device",
 * PostgreSQL's {@code disk_full}) is a 507. Everything else stays a bug. The failure's cause chain is searched, since
 * Micronaut Data and the stores wrap what JDBC and the file system threw.
 */
final class InfrastructureFailures {

    /** How long a client should wait before trying again while the database is out of reach. */
    static final Duration DATABASE_RETRY_AFTER = Duration.ofSeconds(2);
    static final String DATABASE_UNAVAILABLE = "the database is unavailable for now; try again shortly";
    static final String STORAGE_FULL = "the server's storage is full (no space left on the device); the write was not "
            + "made, try again once space is freed";

    private static final int MAX_DEPTH = 32;
    private static final String HIKARI_CLOSED = "Connection is closed";

    private InfrastructureFailures() {
    }

    /** The refusal that answers {@code failure}, or empty when it is none of the known infrastructure failures. */
    static Optional<Refusal> refusal(Throwable failure) {
        for (Throwable t : causes(failure)) {
            Optional<Refusal> known = switch (t) {
                case SQLException sql -> ofSql(sql);
                case IOException io -> ofIo(io);
                default -> Optional.empty();
            };
            if (known.isPresent()) {
                return known;
            }
        }
        return Optional.empty();
    }

    /** {@code failure} and its causes, outermost first: at most {@value #MAX_DEPTH}, each once (a cycle ends it). */
    static List<Throwable> causes(Throwable failure) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = failure; t != null && seen.size() < MAX_DEPTH && seen.add(t); t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }

    private static Optional<Refusal> ofSql(SQLException e) {
        String state = e.getSQLState();
        if (state != null && state.equals("53100")) {
            return Optional.of(storageFull());
        }
        // Hikari's "connection is not available, request timed out" carries the last connection failure's state, or
        // none; its proxy of a connection it closed as broken (a rollback after the server went away) has none either.
        if (e instanceof SQLTransientConnectionException || state != null && unavailable(state)
                || state == null && HIKARI_CLOSED.equals(e.getMessage())) {
            return Optional.of(databaseUnavailable());
        }
        return Optional.empty();
    }

    /**
     * SQLSTATE class 08 (connection exception), 57P01..57P03 (admin shutdown, crash shutdown, cannot connect now:
     * PostgreSQL stopping, restarting after a crash, or starting up) and the rest of class 53 (insufficient resources:
     * too many connections, out of memory), which pass with time.
     */
    static boolean unavailable(String state) {
        return state.startsWith("08") || state.equals("57P01") || state.equals("57P02") || state.equals("57P03")
                || state.startsWith("53");
    }

    private static Optional<Refusal> ofIo(IOException e) {
        String message = e.getMessage();
        // The JDK reports ENOSPC and EDQUOT with the C library's text, in FileSystemException's reason or the message.
        boolean full = message != null && (message.contains("No space left on device")
                || message.contains("Disk quota exceeded"));
        return full ? Optional.of(storageFull()) : Optional.empty();
    }

    static Refusal databaseUnavailable() {
        return new Refusal(Refusal.Reason.NOT_READY, DATABASE_UNAVAILABLE, null, Optional.of(DATABASE_RETRY_AFTER));
    }

    static Refusal storageFull() {
        return new Refusal(Refusal.Reason.INSUFFICIENT_STORAGE, STORAGE_FULL, null);
    }
}
