package dev.crucible.adapters.persistence.process;

import dev.crucible.adapters.persistence.sql.Sql;
import dev.crucible.application.process.ProcessIdentity;
import dev.crucible.application.process.ProcessRegistry;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.UUID;

/** The process registry in {@code crucible_processes}: one row per live process, its heartbeat updated in place. */
@Singleton
@Transactional
class JdbcProcessRegistry implements ProcessRegistry {

    private final Sql sql;
    private final String host;

    JdbcProcessRegistry(Sql sql) {
        this.sql = sql;
        this.host = hostName();
    }

    @Override
    public void beat(ProcessIdentity self, Instant now) {
        sql.update("INSERT INTO crucible_processes (id, role, host, started_at, heartbeat_at) VALUES (?, ?, ?, ?, ?) "
                + "ON CONFLICT (id) DO UPDATE SET heartbeat_at = EXCLUDED.heartbeat_at",
                self.id(), self.role().wireName(), host, now, now);
    }

    @Override
    public void leave(UUID id) {
        sql.update("DELETE FROM crucible_processes WHERE id = ?", id);
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown";
        }
    }
}
