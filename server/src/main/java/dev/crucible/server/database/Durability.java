package dev.crucible.server.database;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * How the embedded PostgreSQL writes. zonky starts it for throwaway test databases ({@code -F}: no fsync, and
 * {@code synchronous_commit=off}), so a commit could be answered before it was on disk; Crucible sets the three
 * settings explicitly, after zonky's, and they win.
 */
public enum Durability {

    /** PostgreSQL's defaults: a commit is answered once its WAL is flushed to disk, and survives kill -9 or a crash. */
    DURABLE("on"),

    /**
     * UNSAFE: fsync, synchronous_commit and full_page_writes off. Faster, but writes already answered with 2xx
     * are lost when PostgreSQL is killed or the machine crashes, and a crash may corrupt the database. For
     * throwaway data only (tests, benchmarks).
     */
    UNSAFE_FAST("off");

    private final String value;

    Durability(String value) {
        this.value = value;
    }

    EmbeddedPostgres.Builder apply(EmbeddedPostgres.Builder builder) {
        return builder.setServerConfig("fsync", value)
                .setServerConfig("synchronous_commit", value)
                .setServerConfig("full_page_writes", value);
    }
}
