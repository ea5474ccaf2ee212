package dev.crucible.application.process;

import java.util.Objects;
import java.util.UUID;

/**
 * This process among those sharing one database: a fresh id per start, and its role. What it owns in the database
 * (pending training operations) carries the id, so that another process can tell it died.
 *
 * @param id new on every start, never reused
 * @param role what it does
 */
public record ProcessIdentity(UUID id, ProcessRole role) {

    public ProcessIdentity {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(role, "role");
    }

    /** A new identity for a process starting with {@code role}. */
    public static ProcessIdentity start(ProcessRole role) {
        return new ProcessIdentity(UUID.randomUUID(), role);
    }
}
