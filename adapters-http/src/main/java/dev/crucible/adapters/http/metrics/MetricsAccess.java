package dev.crucible.adapters.http.metrics;

import java.util.Locale;

/**
 * Who may read {@code /metrics} ({@code crucible.metrics.access}): {@code key} (the default) asks every caller for an
 * API key, whatever their address, and {@code open} asks no one (a scraper on a private network, chosen on purpose).
 * There is no "loopback without a key": a reverse proxy on the same machine makes every request come from loopback,
 * which would publish the metrics, so the old {@code loopback} value stops the server at start-up and says why.
 */
enum MetricsAccess {
    KEY, OPEN;

    static MetricsAccess parse(String setting) {
        String value = setting.trim().toLowerCase(Locale.ROOT);
        if (value.equals("loopback")) {
            throw new IllegalArgumentException("crucible.metrics.access=loopback is no longer offered: behind a reverse "
                    + "proxy on the same machine every caller comes from loopback, so it published the metrics; use "
                    + "key (give the scraper an API key as its bearer token) or open (no key, on a private network)");
        }
        try {
            return valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("crucible.metrics.access must be key or open, got " + setting, e);
        }
    }

    /** Whether a caller with ({@code keyed}) or without a valid API key may read the metrics; the address is moot. */
    boolean allows(boolean keyed) {
        return switch (this) {
            case OPEN -> true;
            case KEY -> keyed;
        };
    }
}
