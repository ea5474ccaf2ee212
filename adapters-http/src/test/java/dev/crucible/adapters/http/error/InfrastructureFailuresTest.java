package dev.crucible.adapters.http.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.crucible.kernel.refusal.Refusal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InfrastructureFailuresTest {

    @Test
    void theDatabaseOutOfReachIsNotReadyWithARetryHint() {
        for (String state : new String[] {"08001", "08006", "08003", "57P01", "57P02", "57P03", "53300"}) {
            Refusal refusal = InfrastructureFailures.refusal(wrapped(new SQLException("down", state))).orElseThrow();
            assertEquals(Refusal.Reason.NOT_READY, refusal.reason(), state);
            assertEquals(Optional.of(Duration.ofSeconds(2)), refusal.retryAfter(), state);
            assertEquals(503, ErrorStatus.of(refusal.reason()));
        }
    }

    @Test
    void thePoolsTimeoutWithoutAStateIsNotReady() {
        SQLException hikari = new SQLTransientConnectionException("default - Connection is not available, request timed out after 3000ms");
        assertEquals(Refusal.Reason.NOT_READY, InfrastructureFailures.refusal(wrapped(hikari)).orElseThrow().reason());
    }

    @Test
    void aConnectionThePoolClosedAsBrokenIsNotReady() {
        // A commit failed as the server died, then the rollback met Hikari's proxy of the closed connection.
        Throwable rollback = new IllegalStateException("Could not roll back JDBC transaction",
                new SQLException("Connection is closed"));
        assertEquals(Refusal.Reason.NOT_READY, InfrastructureFailures.refusal(rollback).orElseThrow().reason());
    }

    @Test
    void postgresDiskFullIsInsufficientStorage() {
        Refusal refusal = InfrastructureFailures.refusal(wrapped(new SQLException(
                "could not extend file \"base/16384/16385\": No space left on device", "53100"))).orElseThrow();
        assertEquals(Refusal.Reason.INSUFFICIENT_STORAGE, refusal.reason());
        assertEquals(507, ErrorStatus.of(refusal.reason()));
        assertTrue(refusal.message().contains("storage is full"), refusal.message());
        assertEquals("insufficient_storage", ErrorStatus.typeOf(507));
    }

    @Test
    void aFullDataDirectoryIsInsufficientStorage() {
        IOException enospc = new FileSystemException("/data/files/.partial/x.part", null, "No space left on device");
        Throwable failure = new UncheckedIOException("cannot store file x", enospc);
        assertEquals(Refusal.Reason.INSUFFICIENT_STORAGE, InfrastructureFailures.refusal(failure).orElseThrow().reason());
        assertEquals(Refusal.Reason.INSUFFICIENT_STORAGE,
                InfrastructureFailures.refusal(new IOException("Disk quota exceeded")).orElseThrow().reason());
    }

    @Test
    void otherFailuresStayBugs() {
        assertEquals(Optional.empty(), InfrastructureFailures.refusal(wrapped(new SQLException("dup", "23505"))));
        assertEquals(Optional.empty(), InfrastructureFailures.refusal(wrapped(new SQLException("no state"))));
        assertEquals(Optional.empty(), InfrastructureFailures.refusal(new UncheckedIOException(new IOException("Permission denied"))));
        assertEquals(Optional.empty(), InfrastructureFailures.refusal(new IllegalStateException("bug")));
    }

    @Test
    void aCauseCycleEnds() {
        RuntimeException a = new RuntimeException("a");
        RuntimeException b = new RuntimeException("b", a);
        a.initCause(b);
        assertEquals(Optional.empty(), InfrastructureFailures.refusal(a));
    }

    private static RuntimeException wrapped(Throwable cause) {
        return new RuntimeException("data access failed", new IllegalStateException("in a transaction", cause));
    }
}
