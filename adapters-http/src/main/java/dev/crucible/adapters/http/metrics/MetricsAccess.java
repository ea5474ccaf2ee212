package dev.crucible.adapters.http.metrics;

import java.net.InetSocketAddress;
import java.util.Locale;

/**
 * Who may read {@code /metrics} ({@code crucible.metrics.access}): {@code loopback} (the default) lets anyone on
 * this machine read them without a key and asks a key of everyone else, {@code key} asks a key of everyone, and
 * {@code open} asks no one (for a scraper on a private network).
 */
enum MetricsAccess {
    LOOPBACK, KEY, OPEN;

    static MetricsAccess parse(String setting) {
        try {
            return valueOf(setting.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("crucible.metrics.access must be loopback, key or open, got " + setting, e);
        }
    }

    /** Whether a caller from {@code remote}, with ({@code keyed}) or without a valid key, may read the metrics. */
    boolean allows(InetSocketAddress remote, boolean keyed) {
        return switch (this) {
            case OPEN -> true;
            case KEY -> keyed;
            case LOOPBACK -> keyed || remote.getAddress() != null && remote.getAddress().isLoopbackAddress();
        };
    }
}
