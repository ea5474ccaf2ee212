package dev.crucible.application.health;

/**
 * The result of one system check.
 *
 * @param success whether the checked part works
 * @param durationMs how long the check took
 * @param error why it failed, or null on success
 */
public record Check(boolean success, long durationMs, String error) {
}
