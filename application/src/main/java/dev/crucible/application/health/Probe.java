package dev.crucible.application.health;

/**
 * Checks one part of the system. Returns normally when the part works, throws (with a message a user can
 * act on) when it does not. May block briefly; must not take longer than a few seconds.
 */
@FunctionalInterface
public interface Probe {

    void probe() throws Exception;
}
